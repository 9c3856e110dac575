package compho

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"slices"
)

// A Keyer is a Machine that writes its algorithm state to a Key, so that
// an exploration can tell states apart: two machines of the same type must
// write the same bytes exactly when their algorithm states are equal, that
// is, when every future of one is a future of the other. make-HO generates
// Key for every machine it writes.
type Keyer interface {
	Key(k *Key)
}

// A Key accumulates the encoding of a state. The encoding is
// self-delimiting (every variable-length value is prefixed by its length),
// so that the concatenation of the fields of two states is equal only if
// the fields are.
type Key struct {
	buf []byte
	// AbstractCounters leaves out the counters (see Counter) and resets
	// them to zero: the phase counters of a protocol whose transitions do
	// not depend on them (OneThirdRule), so that its state space is
	// finite. The reset makes the processes of states that differ only
	// in their counters agree on them again (a process compares the
	// phase its messages carry with its own).
	AbstractCounters bool
}

// Bytes returns the encoding written so far. It is valid until the next
// write or Reset.
func (k *Key) Bytes() []byte { return k.buf }

// Reset empties the key, keeping AbstractCounters.
func (k *Key) Reset() { k.buf = k.buf[:0] }

// Int writes a signed integer.
func (k *Key) Int(v int64) { k.buf = binary.AppendVarint(k.buf, v) }

// Uint writes an unsigned integer.
func (k *Key) Uint(v uint64) { k.buf = binary.AppendUvarint(k.buf, v) }

// Bool writes a boolean.
func (k *Key) Bool(b bool) {
	if b {
		k.buf = append(k.buf, 1)
	} else {
		k.buf = append(k.buf, 0)
	}
}

// String writes a string.
func (k *Key) String(s string) {
	k.Uint(uint64(len(s)))
	k.buf = append(k.buf, s...)
}

// An Integer is a type of integers.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Counter writes *v, a counter that only numbers phases or iterations
// (the phase variable of a loop's tag, the iteration count of a range
// loop), to k: unless k.AbstractCounters is set, it is written like an
// integer; if it is, nothing is written and *v is set to zero.
func Counter[T Integer](k *Key, v *T) {
	if k.AbstractCounters {
		*v = 0
		return
	}
	k.Int(int64(*v))
}

// Value writes any value by reflection, deeply: the elements of slices,
// arrays and maps (a map's entries in the order of their encoded keys, so
// that equal maps give equal keys), the fields of structs (unexported ones
// included), what pointers point to (nil is distinct from a pointer to a
// zero value), and the dynamic type and value of interfaces. Channels,
// functions and unsafe pointers are the environment of a process, not its
// state: only whether they are nil is written. Cyclic data makes Value
// loop for ever.
func (k *Key) Value(v any) {
	k.value(reflect.ValueOf(v))
}

func (k *Key) value(v reflect.Value) {
	if !v.IsValid() {
		k.buf = append(k.buf, 0)
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		k.Bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		k.Int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		k.Uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		k.Uint(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		k.Uint(math.Float64bits(real(c)))
		k.Uint(math.Float64bits(imag(c)))
	case reflect.String:
		k.String(v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice {
			k.Bool(v.IsNil())
		}
		k.Uint(uint64(v.Len()))
		for i := range v.Len() {
			k.value(v.Index(i))
		}
	case reflect.Map:
		k.Bool(v.IsNil())
		k.mapValue(v)
	case reflect.Struct:
		for i := range v.NumField() {
			k.value(v.Field(i))
		}
	case reflect.Pointer:
		k.Bool(v.IsNil())
		if !v.IsNil() {
			k.value(v.Elem())
		}
	case reflect.Interface:
		k.Bool(v.IsNil())
		if !v.IsNil() {
			k.String(v.Elem().Type().String())
			k.value(v.Elem())
		}
	default: // Chan, Func, UnsafePointer: the environment
		k.Bool(v.IsNil())
	}
}

// mapValue writes the entries of map v sorted by the encoding of their
// keys.
func (k *Key) mapValue(v reflect.Value) {
	type entry struct{ key, val []byte }
	entries := make([]entry, 0, v.Len())
	sub := Key{AbstractCounters: k.AbstractCounters}
	for it := v.MapRange(); it.Next(); {
		sub.Reset()
		sub.value(it.Key())
		key := slices.Clone(sub.buf)
		sub.Reset()
		sub.value(it.Value())
		entries = append(entries, entry{key, slices.Clone(sub.buf)})
	}
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	k.Uint(uint64(len(entries)))
	for _, e := range entries {
		k.buf = append(k.buf, e.key...)
		k.buf = append(k.buf, e.val...)
	}
}
