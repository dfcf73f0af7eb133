package jsonparam

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// structField is a struct field as encoding/json sees it.
type structField struct {
	name   string
	tagged bool
	index  []int
	typ    reflect.Type // the declared type
	quoted bool         // the ",string" option applies
}

type structFields struct {
	byName map[string]*structField
	byFold map[string]*structField // the first field, in declaration order, of each folded name
}

func (fs *structFields) lookup(key string) *structField {
	if f := fs.byName[key]; f != nil {
		return f
	}
	return fs.byFold[foldJSONName(key)]
}

var structFieldsCache sync.Map // reflect.Type -> *structFields

// embeddedStruct is a struct type reached through anonymous fields, at index.
type embeddedStruct struct {
	typ   reflect.Type
	index []int
}

// allFields lists every candidate field of t, level by level through embedded structs (a
// name may appear several times; dominantFields keeps one).
func allFields(t reflect.Type) []structField {
	var found []structField
	visited := map[reflect.Type]bool{}
	level := []embeddedStruct{{typ: t}}
	var seen map[reflect.Type]int // how often each type of the current level was embedded
	for len(level) > 0 {
		var next []embeddedStruct
		nextSeen := map[reflect.Type]int{}
		for _, e := range level {
			if visited[e.typ] {
				continue
			}
			visited[e.typ] = true
			for i := range e.typ.NumField() {
				f, embed, ok := fieldOf(e.typ.Field(i), append(slices.Clone(e.index), i))
				switch {
				case !ok:
				case embed != nil:
					if nextSeen[embed]++; nextSeen[embed] == 1 {
						next = append(next, embeddedStruct{typ: embed, index: f.index})
					}
				default:
					found = append(found, f)
					if seen[e.typ] > 1 { // the same struct embedded twice at one level: a conflict
						found = append(found, f)
					}
				}
			}
		}
		level, seen = next, nextSeen
	}
	return found
}

// fieldOf reads one struct field at index as encoding/json does: ok is false for a field
// it ignores; embed is the struct type of an untagged embedded struct, whose fields count in
// its place.
func fieldOf(sf reflect.StructField, index []int) (f structField, embed reflect.Type, ok bool) {
	if sf.Anonymous {
		et := sf.Type
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if !sf.IsExported() && et.Kind() != reflect.Struct {
			return f, nil, false
		}
	} else if !sf.IsExported() {
		return f, nil, false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return f, nil, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if !validTagName(name) {
		name = ""
	}
	ft := sf.Type
	if ft.Name() == "" && ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
		return structField{index: index}, ft, true
	}
	f = structField{name: name, tagged: name != "", index: index, typ: sf.Type}
	if f.name == "" {
		f.name = sf.Name
	}
	if slices.Contains(strings.Split(opts, ","), "string") {
		switch ft.Kind() {
		case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			f.quoted = true
		}
	}
	return f, nil, true
}

// dominantFields keeps, for each name, the one dominant field (shallowest, then tagged; a
// tie drops the name), in index order.
func dominantFields(found []structField) []structField {
	slices.SortStableFunc(found, func(a, b structField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	var kept []structField
	for i := 0; i < len(found); {
		j := i + 1
		for j < len(found) && found[j].name == found[i].name {
			j++
		}
		if j-i == 1 || len(found[i].index) != len(found[i+1].index) || found[i].tagged != found[i+1].tagged {
			kept = append(kept, found[i])
		}
		i = j
	}
	slices.SortFunc(kept, func(a, b structField) int { return slices.Compare(a.index, b.index) })
	return kept
}

// structFieldsOf lists the fields encoding/json decodes object members into: exported fields
// and those promoted from embedded structs, named by their json tag or Go name, where a
// shallower field hides deeper ones of the same name, a tagged one wins over untagged ones
// at the same depth, and other conflicts drop the name.
func structFieldsOf(t reflect.Type) *structFields {
	if fs, ok := structFieldsCache.Load(t); ok {
		return fs.(*structFields)
	}
	kept := dominantFields(allFields(t))
	fs := &structFields{byName: make(map[string]*structField, len(kept)), byFold: make(map[string]*structField, len(kept))}
	for i := range kept {
		f := &kept[i]
		fs.byName[f.name] = f
		if folded := foldJSONName(f.name); fs.byFold[folded] == nil {
			fs.byFold[folded] = f
		}
	}
	actual, _ := structFieldsCache.LoadOrStore(t, fs)
	return actual.(*structFields)
}

// validTagName reports whether a json tag name is used as is (encoding/json ignores names
// with other characters).
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r) && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// foldJSONName maps names that encoding/json matches case-insensitively to the same string:
// each rune becomes the smallest rune of its case-folding orbit.
func foldJSONName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		for {
			f := unicode.SimpleFold(r)
			if f <= r {
				r = f
				break
			}
			r = f
		}
		b.WriteRune(r)
	}
	return b.String()
}
