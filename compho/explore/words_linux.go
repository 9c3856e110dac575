package explore

import "syscall"

// allocWords returns n zeroed words outside the Go heap, in memory the
// kernel is asked to back with huge pages: the index of a search of a
// million states is probed at random, and with 4 KiB pages most probes
// also miss the TLB. The words hold no pointers. freeWords releases them.
func allocWords(n int) []uint64 {
	if n < 1<<18 { // below 2 MiB, the heap
		return make([]uint64, n)
	}
	b, err := syscall.Mmap(-1, 0, 8*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]uint64, n)
	}
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; a kernel without it ignores the advice
	return unsafeWords(b)
}

// freeWords releases words allocWords returned.
func freeWords(w []uint64) {
	if len(w) < 1<<18 {
		return
	}
	_ = syscall.Munmap(wordBytes(w))
}
