// Package foreignuse sees the annotations package foreign made on ext.
package foreignuse

import (
	"ext"
	_ "foreign"
)

func run() {
	var height int
	//sync:tag height
	for {
		height++
		ext.Broadcast(ext.Header{}) // want `message ext\.Header maps 2 tag component\(s\) but is used in a loop tagged height \(1 variables\)`
	}
}
