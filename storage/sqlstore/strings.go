package sqlstore

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"time"

	"github.com/teamchat/chat/storage"
)

// checkArgs refuses, with storage.ErrInvalidString, the arguments of a statement holding a
// string that storage.ValidString refuses: PostgreSQL would fail the statement (a NUL byte in
// text, bytes that are not UTF-8) where SQLite would keep the string or match nothing, so
// both dialects refuse it before the statement is sent. Bytes ([]byte) are not text and pass.
func checkArgs(args []any) error {
	for i, a := range args {
		if !validArg(a) {
			return fmt.Errorf("sqlstore: argument %d: %w", i+1, storage.ErrInvalidString)
		}
	}
	return nil
}

// validArg reports whether the argument a holds no string that storage.ValidString
// refuses: the common types directly, others (named string types, pointers, slices of
// strings) by their kind.
func validArg(a any) bool {
	switch v := a.(type) {
	case nil, bool, int, int32, int64, float64, time.Time, []byte:
		return true
	case string:
		return storage.ValidString(v)
	case *string:
		return v == nil || storage.ValidString(*v)
	case sql.NullString:
		return !v.Valid || storage.ValidString(v.String)
	case driver.Valuer:
		val, err := v.Value()
		return err != nil || validArg(val) // a failing Valuer is the driver's to report
	}
	return validValue(reflect.ValueOf(a))
}

// validValue is validArg for the kinds the switch above does not name.
func validValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return storage.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || validValue(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return true // bytes
		}
		for i := range v.Len() {
			if !validValue(v.Index(i)) {
				return false
			}
		}
	}
	return true
}
