module trials.example/t6

go 1.26
