//go:build !linux

package explore

// allocWords returns n zeroed words.
func allocWords(n int) []uint64 { return make([]uint64, n) }

// freeWords releases words allocWords returned: the collector does.
func freeWords([]uint64) {}
