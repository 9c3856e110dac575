module trials.example/t7

go 1.26
