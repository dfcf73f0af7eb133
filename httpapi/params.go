package httpapi

import (
	"encoding"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	chat "github.com/teamchat/chat"
)

// Limits of parameter decoding.
const (
	// maxParams bounds the key=value pairs of the query string, those of a urlencoded body,
	// and the parts of a multipart body (each counted separately).
	maxParams = 10000
	// maxJSONDepth bounds the nesting of arrays and objects in a JSON-valued parameter.
	maxJSONDepth = 32
)

// Media types whose bodies carry parameters. Any other body (application/json included) is
// not read.
const (
	mediaForm      = "application/x-www-form-urlencoded"
	mediaMultipart = "multipart/form-data"
)

// params are the parameters of one request, following Zulip's rules: they come from the body
// (urlencoded or multipart, whatever the method) and from the query string, the body winning,
// and the first value of a repeated key winning. Every accessor marks the name as read, so
// that ignored can list the parameters no handler looked at.
//
// A params is used by the one goroutine that serves its request; it is not safe for
// concurrent use.
type params struct {
	values map[string]string
	read   map[string]struct{}
	// files are the file parts of a multipart body, in order (handlers that take a file
	// read them; the body's bound applies).
	files [][]byte
}

// decodeParams reads the query string and the body (bounded by maxBody) of r.
//
// The body is parsed for every method when its Content-Type is
// application/x-www-form-urlencoded or multipart/form-data (file parts are kept aside, in files); any
// other body is left unread. Errors are *chat.Error values: 413 "Request body is too large"
// past maxBody, "Malformed payload" for bad encoding or values that are not UTF-8 (the query
// string follows the same rules), "Too many parameters" past maxParams.
func decodeParams(r *http.Request, maxBody int64) (*params, error) {
	p := &params{values: make(map[string]string), read: make(map[string]struct{})}
	if err := p.readBody(r, maxBody); err != nil {
		return nil, err
	}
	if r.URL != nil {
		if err := parseURLEncoded(r.URL.RawQuery, p.values); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// decodeQuery reads the query string of r only, leaving the body to the handler.
func decodeQuery(r *http.Request, _ int64) (*params, error) {
	p := &params{values: make(map[string]string), read: make(map[string]struct{})}
	if r.URL != nil {
		if err := parseURLEncoded(r.URL.RawQuery, p.values); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func errBodyTooLarge() *chat.Error {
	return &chat.Error{Code: chat.CodeBadRequest, Status: http.StatusRequestEntityTooLarge, Msg: "Request body is too large"}
}

func errMalformedPayload(cause error) *chat.Error {
	e := chat.Errorf(chat.CodeBadRequest, "Malformed payload")
	e.Err = cause
	return e
}

func errTooManyParams() *chat.Error {
	return chat.Errorf(chat.CodeBadRequest, "Too many parameters")
}

// readBody adds the parameters of the body of r to p.values.
func (p *params) readBody(r *http.Request, maxBody int64) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	media, mparams, perr := mime.ParseMediaType(ct)
	if media != mediaForm && media != mediaMultipart {
		return nil
	}
	if r.ContentLength > maxBody {
		return errBodyTooLarge()
	}
	body := &boundedReader{r: r.Body, left: maxBody}
	if media == mediaForm {
		data, err := io.ReadAll(body)
		if err != nil {
			return body.failure(err)
		}
		return parseURLEncoded(string(data), p.values)
	}
	boundary := mparams["boundary"]
	if perr != nil || boundary == "" {
		return errMalformedPayload(errors.New("multipart body without a boundary"))
	}
	return parseMultipart(body, boundary, p.values, &p.files)
}

// errBodyLimit is what a boundedReader returns once the body goes past its limit.
var errBodyLimit = errors.New("request body too large")

// boundedReader reads at most left bytes of r; one more byte available makes it fail with
// errBodyLimit (and remember that it did, since multipart readers wrap or replace errors).
type boundedReader struct {
	r        io.Reader
	left     int64
	exceeded bool
	got      int64 // bytes read
}

// empty reports whether the body turned out to have no bytes at all.
func (b *boundedReader) empty() bool { return b.got == 0 && !b.exceeded }

func (b *boundedReader) Read(buf []byte) (int, error) {
	if b.exceeded {
		return 0, errBodyLimit
	}
	if len(buf) == 0 {
		return 0, nil
	}
	if b.left <= 0 {
		var one [1]byte
		n, err := b.r.Read(one[:])
		if n > 0 {
			b.exceeded = true
			return 0, errBodyLimit
		}
		return 0, err
	}
	if int64(len(buf)) > b.left {
		buf = buf[:b.left]
	}
	n, err := b.r.Read(buf)
	b.left -= int64(n)
	b.got += int64(n)
	return n, err
}

// failure turns an error met while reading the body into the error of the request.
func (b *boundedReader) failure(err error) *chat.Error {
	var mbe *http.MaxBytesError
	if b.exceeded || errors.Is(err, errBodyLimit) || errors.As(err, &mbe) {
		return errBodyTooLarge()
	}
	return errMalformedPayload(err)
}

// parseURLEncoded adds the pairs of s (application/x-www-form-urlencoded, as in a query
// string) to into, keeping values already present. Unlike url.ParseQuery it takes ";" as an
// ordinary character, as Django does.
func parseURLEncoded(s string, into map[string]string) error {
	n := 0
	for s != "" {
		var pair string
		pair, s, _ = strings.Cut(s, "&")
		if pair == "" {
			continue
		}
		if n++; n > maxParams {
			return errTooManyParams()
		}
		rawKey, rawValue, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(rawKey)
		if err != nil {
			return errMalformedPayload(err)
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			return errMalformedPayload(err)
		}
		if !utf8.ValidString(key) || !utf8.ValidString(value) {
			return errMalformedPayload(errors.New("parameter is not valid UTF-8"))
		}
		if _, dup := into[key]; !dup {
			into[key] = value
		}
	}
	return nil
}

// parseMultipart adds the non-file form-data parts of a multipart body to into, keeping
// values already present.
func parseMultipart(body *boundedReader, boundary string, into map[string]string, files *[][]byte) error {
	mr := multipart.NewReader(body, boundary)
	for parts := 0; ; parts++ {
		part, err := mr.NextPart()
		if err == io.EOF || (err != nil && parts == 0 && body.empty()) {
			return nil // an empty body has no parts, as in Django
		}
		if err != nil {
			return body.failure(err)
		}
		if parts >= maxParams {
			return errTooManyParams()
		}
		disposition, dparams, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
		name, named := dparams["name"]
		_, isFile := dparams["filename"]
		if err == nil && disposition == "form-data" && isFile {
			data, err := io.ReadAll(part)
			if err != nil {
				return body.failure(err)
			}
			*files = append(*files, data)
			continue
		}
		if err != nil || disposition != "form-data" || !named {
			continue // parts that are no form field are not parameters
		}
		value, err := io.ReadAll(part)
		if err != nil {
			return body.failure(err)
		}
		if !utf8.ValidString(name) || !utf8.Valid(value) {
			return errMalformedPayload(errors.New("parameter is not valid UTF-8"))
		}
		if _, dup := into[name]; !dup {
			into[name] = string(value)
		}
	}
}

// lookup returns the value of name and marks it as read.
func (p *params) lookup(name string) (string, bool) {
	v, ok := p.values[name]
	if ok {
		p.read[name] = struct{}{}
	}
	return v, ok
}

// has reports whether name is present, and marks it as read.
func (p *params) has(name string) bool {
	_, ok := p.lookup(name)
	return ok
}

// str returns the plain string value of name.
func (p *params) str(name string) (string, bool) {
	return p.lookup(name)
}

// requiredStr returns the plain string value of name, or a missing-argument error.
func (p *params) requiredStr(name string) (string, error) {
	v, ok := p.lookup(name)
	if !ok {
		return "", chat.MissingArgument(name)
	}
	return v, nil
}

// optStr returns the plain string value of name, nil when absent.
func (p *params) optStr(name string) *string {
	v, ok := p.lookup(name)
	if !ok {
		return nil
	}
	return &v
}

// boolean decodes name as a JSON boolean (true or false, nothing else); nil when absent.
func (p *params) boolean(name string) (*bool, error) {
	raw, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(raw)) {
		return nil, errNotValidJSON(name)
	}
	switch trimJSONSpace(raw) {
	case "true":
		b := true
		return &b, nil
	case "false":
		b := false
		return &b, nil
	}
	return nil, errNotA(name, "a boolean")
}

// boolOr decodes name as a JSON boolean; def when absent.
func (p *params) boolOr(name string, def bool) (bool, error) {
	b, err := p.boolean(name)
	if err != nil || b == nil {
		return def, err
	}
	return *b, nil
}

// integer decodes name as a JSON integer (no fraction, no exponent, no quotes) that fits in
// an int64; nil when absent.
func (p *params) integer(name string) (*int64, error) {
	raw, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(raw)) {
		return nil, errNotValidJSON(name)
	}
	n, err := strconv.ParseInt(trimJSONSpace(raw), 10, 64)
	if err != nil {
		return nil, errNotA(name, "an integer")
	}
	return &n, nil
}

// requiredInt is integer for a required parameter.
func (p *params) requiredInt(name string) (int64, error) {
	n, err := p.integer(name)
	if err != nil {
		return 0, err
	}
	if n == nil {
		return 0, chat.MissingArgument(name)
	}
	return *n, nil
}

// jsonParam decodes a JSON-valued parameter into a new T; nil if absent. If strict, unknown
// object keys are refused (DisallowUnknownFields). JSON null leaves T at its zero value, as
// encoding/json does. Decoding into json.RawMessage accepts any JSON value, for parameters
// of several types (an integer or "unlimited").
func jsonParam[T any](p *params, name string, strict bool) (*T, error) {
	raw, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	v := new(T)
	if err := decodeJSONValue(name, raw, v, strict); err != nil {
		return nil, err
	}
	return v, nil
}

// requiredJSON is jsonParam for a required parameter.
func requiredJSON[T any](p *params, name string, strict bool) (T, error) {
	v, err := jsonParam[T](p, name, strict)
	if err != nil {
		var zero T
		return zero, err
	}
	if v == nil {
		var zero T
		return zero, chat.MissingArgument(name)
	}
	return *v, nil
}

// ignored lists, sorted, the parameters present that were never read; nil when none.
func (p *params) ignored() []string {
	var out []string
	for k := range p.values {
		if _, ok := p.read[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func errNotValidJSON(name string) *chat.Error {
	return chat.Errorf(chat.CodeBadRequest, "%s is not valid JSON", name)
}

// errNotA is "name is not a boolean" and the like; what is "a boolean", "an integer", ...
func errNotA(name, what string) *chat.Error {
	return chat.Errorf(chat.CodeBadRequest, "%s is not %s", name, what)
}

func errUnexpectedKey(key, path string) *chat.Error {
	return chat.Errorf(chat.CodeBadRequest, "Argument \"%s\" at %s is unexpected", key, path)
}

func errTooDeep(name string) *chat.Error {
	return chat.Errorf(chat.CodeBadRequest, "%s is too deeply nested", name)
}

func trimJSONSpace(s string) string {
	return strings.Trim(s, " \t\r\n")
}

// tooDeep reports whether JSON text nests arrays and objects more than limit levels deep.
// It scans without recursing and does not need the text to be well-formed.
func tooDeep(s string, limit int) bool {
	depth := 0
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			if depth++; depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// decodeJSONValue decodes the JSON text raw of parameter name into dst (a non-nil pointer).
// Nesting and syntax are checked first; a decoding failure is then explained by walking the
// value against the type of *dst, so that the message names the exact place:
// drafts[0]["content"] is not a string.
func decodeJSONValue(name, raw string, dst any, strict bool) error {
	if tooDeep(raw, maxJSONDepth) {
		return errTooDeep(name)
	}
	if !json.Valid([]byte(raw)) {
		return errNotValidJSON(name)
	}
	if !selfChecked[name] && hasEscapedNUL(raw) {
		return errNullBytes(name)
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var ce *chat.Error
	if errors.As(err, &ce) { // from an UnmarshalJSON method
		return ce
	}
	t := reflect.TypeOf(dst).Elem()
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		what := jsonKindName(te.Type)
		if what == "" {
			return chat.InvalidArgument(name, "")
		}
		if prob := explainJSON(raw, t, name, strict); prob != nil && !prob.unexpected && prob.what == what {
			return prob.err()
		}
		return errNotA(name+fieldPath(te.Field), what)
	}
	if key, ok := unknownFieldKey(err); ok {
		if prob := explainJSON(raw, t, name, strict); prob != nil && prob.unexpected && prob.key == key {
			return prob.err()
		}
		return errUnexpectedKey(key, name)
	}
	return chat.InvalidArgument(name, "")
}

// unknownFieldKey extracts the key from encoding/json's DisallowUnknownFields error.
func unknownFieldKey(err error) (string, bool) {
	quoted, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
	if !ok {
		return "", false
	}
	key, uerr := strconv.Unquote(quoted)
	return key, uerr == nil
}

// fieldPath turns the dotted Field of a json.UnmarshalTypeError into path parts: a.b is
// ["a"]["b"].
func fieldPath(field string) string {
	if field == "" {
		return ""
	}
	var b strings.Builder
	for part := range strings.SplitSeq(field, ".") {
		b.WriteString(`["`)
		b.WriteString(part)
		b.WriteString(`"]`)
	}
	return b.String()
}

// maxPointerChain bounds the pointers followed from one type (type P *P is legal Go).
const maxPointerChain = 16

// jsonKindName is what a JSON value must be to decode into t: "a boolean", "an integer",
// ...; "" for types without such a name.
func jsonKindName(t reflect.Type) string {
	for i := 0; t.Kind() == reflect.Pointer && i < maxPointerChain; i++ {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a float"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a dict"
	}
	return ""
}

// jsonProblem is the first place where a JSON value does not fit the Go type it decodes
// into: a value of the wrong kind (what it should be) or an unexpected object key.
type jsonProblem struct {
	path       string
	what       string
	unexpected bool
	key        string
}

func (p *jsonProblem) Error() string { return p.err().Msg }

func (p *jsonProblem) err() *chat.Error {
	if p.unexpected {
		return errUnexpectedKey(p.key, p.path)
	}
	return errNotA(p.path, p.what)
}

// errWalkAborted stops a walk that cannot go on (a token stream error).
var errWalkAborted = errors.New("walk aborted")

// explainJSON walks well-formed JSON text raw (at most maxJSONDepth deep) against type t,
// following encoding/json's rules, and returns the first mismatch in document order; nil
// when it finds none.
func explainJSON(raw string, t reflect.Type, name string, strict bool) *jsonProblem {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	w := &jsonWalker{dec: dec, strict: strict}
	if err := w.value(t, name); err != nil {
		var prob *jsonProblem
		if errors.As(err, &prob) {
			return prob
		}
	}
	return nil
}

type jsonWalker struct {
	dec    *json.Decoder
	strict bool
}

func (w *jsonWalker) token() (json.Token, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, errWalkAborted
	}
	return tok, nil
}

// value checks the next value of the stream against t.
func (w *jsonWalker) value(t reflect.Type, path string) error {
	tok, err := w.token()
	if err != nil {
		return err
	}
	return w.check(tok, t, path)
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonNumberType      = reflect.TypeFor[json.Number]()
)

// customDecoding reports whether encoding/json hands values of t to a method of its own.
func customDecoding(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshalerType) || pt.Implements(jsonUnmarshalerType) ||
		t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

// check checks the value that starts with tok against t.
func (w *jsonWalker) check(tok json.Token, t reflect.Type, path string) error {
	if tok == nil {
		return nil // null decodes into anything, as a no-op or a nil
	}
	for i := 0; ; i++ {
		if i > maxPointerChain || customDecoding(t) {
			return w.skip(tok)
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return w.skip(tok)
	}
	mismatch := func() error {
		if err := w.skip(tok); err != nil {
			return err
		}
		return &jsonProblem{path: path, what: jsonKindName(t)}
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				return mismatch()
			}
			return w.list(t, path)
		}
		switch t.Kind() {
		case reflect.Map:
			return w.dict(t, path)
		case reflect.Struct:
			return w.object(t, path)
		}
		return mismatch()
	case bool:
		if t.Kind() != reflect.Bool {
			return mismatch()
		}
	case json.Number:
		fits := t == jsonNumberType
		var err error
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			_, err = strconv.ParseInt(v.String(), 10, t.Bits())
			fits = err == nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			_, err = strconv.ParseUint(v.String(), 10, t.Bits())
			fits = err == nil
		case reflect.Float32, reflect.Float64:
			_, err = strconv.ParseFloat(v.String(), t.Bits())
			fits = err == nil
		}
		if !fits {
			return mismatch()
		}
	case string:
		if t.Kind() != reflect.String && (t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8) {
			return mismatch()
		}
	}
	return nil
}

// list checks the elements of an array, after its "[", against slice or array type t.
func (w *jsonWalker) list(t reflect.Type, path string) error {
	for i := 0; w.dec.More(); i++ {
		if t.Kind() == reflect.Array && i >= t.Len() {
			if err := w.skipValue(); err != nil { // extra elements are dropped
				return err
			}
			continue
		}
		if err := w.value(t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	_, err := w.token() // ]
	return err
}

// dict checks the members of an object, after its "{", against map type t.
func (w *jsonWalker) dict(t reflect.Type, path string) error {
	kt := t.Key()
	keyKind := kt.Kind()
	textKey := reflect.PointerTo(kt).Implements(textUnmarshalerType)
	switch keyKind {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !textKey {
			if err := w.skip(json.Delim('{')); err != nil {
				return err
			}
			return &jsonProblem{path: path, what: "a dict"}
		}
	}
	for w.dec.More() {
		key, err := w.key()
		if err != nil {
			return err
		}
		sub := path + `["` + key + `"]`
		if !textKey {
			var kerr error
			switch keyKind {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				_, kerr = strconv.ParseInt(key, 10, kt.Bits())
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				_, kerr = strconv.ParseUint(key, 10, kt.Bits())
			}
			if kerr != nil {
				return &jsonProblem{path: sub, what: "an integer"}
			}
		}
		if err := w.value(t.Elem(), sub); err != nil {
			return err
		}
	}
	_, err := w.token() // }
	return err
}

// object checks the members of an object, after its "{", against struct type t.
func (w *jsonWalker) object(t reflect.Type, path string) error {
	fields := structFieldsOf(t)
	for w.dec.More() {
		key, err := w.key()
		if err != nil {
			return err
		}
		f := fields.lookup(key)
		switch {
		case f == nil && w.strict:
			return &jsonProblem{path: path, unexpected: true, key: key}
		case f == nil || f.quoted:
			err = w.skipValue()
		default:
			err = w.value(f.typ, path+`["`+key+`"]`)
		}
		if err != nil {
			return err
		}
	}
	_, err := w.token() // }
	return err
}

func (w *jsonWalker) key() (string, error) {
	tok, err := w.token()
	if err != nil {
		return "", err
	}
	key, ok := tok.(string)
	if !ok {
		return "", errWalkAborted
	}
	return key, nil
}

func (w *jsonWalker) skipValue() error {
	tok, err := w.token()
	if err != nil {
		return err
	}
	return w.skip(tok)
}

// skip consumes the rest of the value that starts with tok.
func (w *jsonWalker) skip(tok json.Token) error {
	if d, ok := tok.(json.Delim); !ok || (d != '[' && d != '{') {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := w.token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
	return nil
}

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

// groupSettingChanges reads the optional group-setting parameters named by names (each an
// integer group id or a JSON object, see chat.GroupSettingChange); nil when none is given.
func groupSettingChanges(p *params, names []string) (map[string]chat.GroupSettingChange, error) {
	var out map[string]chat.GroupSettingChange
	for _, name := range names {
		v, err := jsonParam[chat.GroupSettingChange](p, name, true)
		if err != nil {
			return nil, err
		}
		if v != nil {
			if out == nil {
				out = map[string]chat.GroupSettingChange{}
			}
			out[name] = *v
		}
	}
	return out, nil
}
