package compho

import (
	"reflect"
	"sync"
	"unsafe"
)

// A Cloner is a Machine that can be copied, so that an exploration can
// fork a state. Clone returns a machine whose future does not depend on
// m's: what an Update of one changes, the other does not see. It copies
// its state with cp, which keeps the data that the machines of one
// process share (a nested machine and its caller point to the same
// process struct) shared in the copies. make-HO generates Clone for every
// machine it writes.
type Cloner interface {
	Clone(cp *Copier) Machine
}

// A Copier deep-copies the state of the machines of one process,
// preserving the sharing between them: a pointer copied twice gives the
// same copy.
type Copier struct {
	seen map[ptrKey]reflect.Value // pointer -> its copy
}

type ptrKey struct {
	t reflect.Type
	p uintptr
}

func keyOf(p reflect.Value) ptrKey { return ptrKey{p.Type(), p.Pointer()} }

// remember records n as the copy of pointer p.
func (cp *Copier) remember(p, n reflect.Value) {
	if cp.seen == nil {
		cp.seen = make(map[ptrKey]reflect.Value)
	}
	cp.seen[keyOf(p)] = n
}

// NewCopier returns a Copier with no copies made yet.
func NewCopier() *Copier { return &Copier{} }

// CopyOf returns a deep copy of v made by cp (a nil cp copies without
// preserving sharing): slices, arrays, maps and structs (unexported fields
// included) are copied element by element, pointers and what they point
// to are copied once per Copier, and the dynamic values of empty
// interfaces (messages) are copied. The environment of a process is
// shared, not copied: channels, functions, unsafe pointers, values of
// interfaces with methods (a network), and pointers to structs that hold
// a channel, a function, an interface with methods or a lock (a network,
// a logger).
func CopyOf[T any](cp *Copier, v T) T {
	if cp == nil {
		cp = &Copier{}
	}
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.New(src.Type()).Elem()
	cp.copy(dst, src)
	return dst.Interface().(T)
}

// CopyPointee returns a pointer to a deep copy of *p (see CopyOf), even
// if *p is a struct that holds its environment: it is how a machine
// copies the process struct its loop runs on. It returns nil for a nil p.
func CopyPointee[T any](cp *Copier, p *T) *T {
	if p == nil {
		return nil
	}
	if cp == nil {
		cp = &Copier{}
	}
	src := reflect.ValueOf(p)
	if c, ok := cp.seen[keyOf(src)]; ok {
		return c.Interface().(*T)
	}
	n := reflect.New(src.Type().Elem())
	cp.remember(src, n)
	cp.copy(n.Elem(), src.Elem())
	return n.Interface().(*T)
}

var lockTypes = map[reflect.Type]bool{
	reflect.TypeFor[sync.Mutex]():     true,
	reflect.TypeFor[sync.RWMutex]():   true,
	reflect.TypeFor[sync.WaitGroup](): true,
	reflect.TypeFor[sync.Once]():      true,
}

// isEnv reports whether a struct type holds the environment of a process
// in one of its own fields.
func isEnv(t reflect.Type) bool {
	for i := range t.NumField() {
		ft := t.Field(i).Type
		switch ft.Kind() {
		case reflect.Chan, reflect.Func, reflect.UnsafePointer:
			return true
		case reflect.Interface:
			if ft.NumMethod() > 0 {
				return true
			}
		case reflect.Struct:
			if lockTypes[ft] {
				return true
			}
		}
	}
	return false
}

// writable returns v without the read-only mark of values reached through
// unexported fields, so that it can be stored; v must be addressable.
func writable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// copy stores a deep copy of src in dst, an addressable zero value of the
// same type.
func (cp *Copier) copy(dst, src reflect.Value) {
	if src.CanAddr() {
		src = writable(src)
	}
	dst = writable(dst)
	switch src.Kind() {
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			cp.copy(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := range src.Len() {
			cp.copy(dst.Index(i), src.Index(i))
		}
	case reflect.Struct:
		for i := range src.NumField() {
			cp.copy(dst.Field(i), src.Field(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		kt, vt := src.Type().Key(), src.Type().Elem()
		for it := src.MapRange(); it.Next(); {
			k, v := reflect.New(kt).Elem(), reflect.New(vt).Elem()
			cp.copy(k, it.Key())
			cp.copy(v, it.Value())
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		if src.Type().Elem().Kind() == reflect.Struct && isEnv(src.Type().Elem()) {
			dst.Set(src)
			return
		}
		if c, ok := cp.seen[keyOf(src)]; ok {
			dst.Set(c)
			return
		}
		n := reflect.New(src.Type().Elem())
		cp.remember(src, n)
		cp.copy(n.Elem(), src.Elem())
		dst.Set(n)
	case reflect.Interface:
		if src.IsNil() || src.Type().NumMethod() > 0 {
			dst.Set(src)
			return
		}
		e := src.Elem()
		c := reflect.New(e.Type()).Elem()
		cp.copy(c, e)
		dst.Set(c)
	default: // scalars, and the environment: channels, functions
		dst.Set(src)
	}
}
