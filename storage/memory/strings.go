package memory

import (
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/teamchat/chat/storage"
)

// textTypes remembers, per type, whether a value of it can hold a string (textTypes.has), so
// that checking a written record walks only the parts of it that can. The zero value is
// ready; a Store holds one for its transactions.
type textTypes struct{ m sync.Map } // reflect.Type → bool

// note checks the key and value of a write: the first that holds a string
// storage.ValidString refuses becomes the transaction's error (journal.invalid), which
// Update returns, rolling the transaction back, as the SQL backend refuses the statement.
// Types that cannot hold text (ids, flags, times) cost one lookup and no allocation.
func note[K, V any](j *journal, k K, v V) {
	if j.invalid != nil || j.types == nil {
		return
	}
	if j.types.has(reflect.TypeFor[K]()) && !j.types.valid(reflect.ValueOf(k)) ||
		j.types.has(reflect.TypeFor[V]()) && !j.types.valid(reflect.ValueOf(v)) {
		j.invalid = fmt.Errorf("memory: write of %T: %w", v, storage.ErrInvalidString)
	}
}

// valid reports whether v holds no string that storage.ValidString refuses.
func (tt *textTypes) valid(v reflect.Value) bool {
	if !v.IsValid() || !tt.has(v.Type()) {
		return true
	}
	switch v.Kind() {
	case reflect.String:
		return storage.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || tt.valid(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if !tt.valid(v.Field(i)) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !tt.valid(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if !tt.valid(it.Key()) || !tt.valid(it.Value()) {
				return false
			}
		}
	}
	return true
}

var timeType = reflect.TypeFor[time.Time]()

// has reports whether a value of type t can hold a string (bytes and times are not text).
func (tt *textTypes) has(t reflect.Type) bool {
	if r, ok := tt.m.Load(t); ok {
		return r.(bool)
	}
	tt.m.Store(t, false) // a type that refers to itself: its other parts decide
	r := tt.compute(t)
	tt.m.Store(t, r)
	return r
}

func (tt *textTypes) compute(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		return true
	case reflect.Pointer:
		return tt.has(t.Elem())
	case reflect.Slice, reflect.Array:
		return t.Elem().Kind() != reflect.Uint8 && tt.has(t.Elem())
	case reflect.Map:
		return tt.has(t.Key()) || tt.has(t.Elem())
	case reflect.Struct:
		if t == timeType {
			return false
		}
		for i := range t.NumField() {
			if tt.has(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
