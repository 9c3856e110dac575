module trials.example/t5

go 1.26
