module trials.example/t1

go 1.26.0
