module trials.example/t2

go 1.26.0
