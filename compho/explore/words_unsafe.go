package explore

import "unsafe"

// unsafeWords views b, whose length is a multiple of 8 and which is
// aligned (a mapping), as words.
func unsafeWords(b []byte) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)
}

// wordBytes is the inverse of unsafeWords.
func wordBytes(w []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))
}
