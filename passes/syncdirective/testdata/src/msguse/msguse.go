// Package msguse uses msgdef's messages with a one-variable tag.
package msguse

import "msgdef"

func run(in chan msgdef.Msg) {
	var ballot int
	//sync:tag ballot
	for {
		ballot++
		m := <-in // want `message msgdef\.Msg maps 2 tag component\(s\) but is used in a loop tagged ballot \(1 variables\)`
		_ = m
		msgdef.Broadcast(msgdef.Vote{}) // want `message msgdef\.Vote maps 3 tag component\(s\)`
	}
}
