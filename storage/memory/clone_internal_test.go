package memory

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// TestCloneCopiesEveryField fills every field of data (whatever fields it has: this test needs
// no update when a table is added) and checks that clone copies each one, equal in value and
// sharing no map, slice or pointer with the original. A field that clone leaves out, or a
// record type that gains a reference field clone copies shallowly, fails here.
func TestCloneCopiesEveryField(t *testing.T) {
	t.Parallel()
	var d data
	fill(reflect.ValueOf(&d).Elem(), 0)
	c := d.clone()
	v, w := reflect.ValueOf(&d).Elem(), reflect.ValueOf(c).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if skipped(v.Field(i).Type()) {
			continue
		}
		a, b := readable(v.Field(i)), readable(w.Field(i))
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			t.Errorf("data.%s: clone differs from the original (left out of clone?)", name)
			continue
		}
		for _, p := range shared(v.Field(i), w.Field(i), "data."+name, 0) {
			t.Errorf("%s: the clone shares memory with the original (copy it with the record's Clone)", p)
		}
	}
}

// skipped reports types the clone does not copy: caches (sync/atomic) and the time package's
// values, whose *Location is shared by design.
func skipped(t reflect.Type) bool {
	p := t.PkgPath()
	return strings.HasPrefix(p, "sync") || p == "time"
}

// readable returns v, made readable when it is an unexported field.
func readable(v reflect.Value) reflect.Value {
	if v.CanInterface() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// fill gives v (addressable) a non-zero value in every part: one entry per map, one element per
// slice, a value behind each pointer.
func fill(v reflect.Value, depth int) {
	if depth > 8 || skipped(v.Type()) {
		return
	}
	v = readable(v)
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(7)
	case reflect.String:
		v.SetString("x")
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), depth+1)
		}
	}
}

// immutable reports whether a pointer to t may be shared: records use pointers to strings and
// numbers for optional values, which the store and its callers replace, never write through
// (records' Clone methods share them too).
func immutable(t reflect.Type) bool {
	return t.Kind() <= reflect.Complex128 || t.Kind() == reflect.String
}

// shared lists the paths at which a and b hold the same map, slice array or pointer.
func shared(a, b reflect.Value, path string, depth int) []string {
	if depth > 8 || skipped(a.Type()) {
		return nil
	}
	var out []string
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return nil
		}
		if a.Pointer() == b.Pointer() && !immutable(a.Type().Elem()) {
			return []string{path}
		}
		return shared(a.Elem(), b.Elem(), path, depth+1)
	case reflect.Slice:
		if a.Len() == 0 || b.Len() == 0 {
			return nil
		}
		if a.Pointer() == b.Pointer() {
			return []string{path}
		}
		for i := range min(a.Len(), b.Len()) {
			out = append(out, shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1)...)
		}
	case reflect.Map:
		if a.Len() == 0 || b.Len() == 0 {
			return nil
		}
		if a.Pointer() == b.Pointer() {
			return []string{path}
		}
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); bv.IsValid() {
				out = append(out, shared(a.MapIndex(k), bv, path+"[key]", depth+1)...)
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			out = append(out, shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, depth+1)...)
		}
	case reflect.Interface:
		if !a.IsNil() && !b.IsNil() {
			out = append(out, shared(a.Elem(), b.Elem(), path, depth+1)...)
		}
	}
	return out
}
