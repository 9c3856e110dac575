// Package handleruse2 sees, through the package fact of handleruse, the
// process tag and the handler that handleruse put on handlers.Replica.
package handleruse2

import (
	"handlers"
	"handleruse"
)

var (
	_ handleruse.Driver
	_ handlers.Replica
)

//sync:ignore syncmono a directive, so that the package is resolved
