module trials.example/t4

go 1.26
