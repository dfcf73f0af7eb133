package httpapi

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	chat "github.com/teamchat/chat"
)

// maxParams bounds the key=value pairs of the query string, those of a urlencoded body,
// and the parts of a multipart body (each counted separately).
const maxParams = 10000

// Media types whose bodies carry parameters. Any other body (application/json included) is
// not read.
const (
	mediaForm      = "application/x-www-form-urlencoded"
	mediaMultipart = "multipart/form-data"
)

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
