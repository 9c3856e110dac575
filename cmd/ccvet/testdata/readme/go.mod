module example.com/leader

go 1.26
