module trials.example/t3

go 1.26
