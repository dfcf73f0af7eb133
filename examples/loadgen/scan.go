package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// A long-polling client needs two things of a GET /events response: the id of its last
// event (to acknowledge it) and the send times stamped in its messages' content. With 1,000
// clients per message, decoding every response's JSON costs loadgen as much CPU as a good
// part of the server's, on the same cores; scanEvents reads both from the bytes instead,
// relying on the server writing each event's "id" as its last member (as it does), and falls
// back to decoding the JSON when the body has another shape.

// scanEvents returns the id of the last event of a GET /events success body (-1: no
// events) and calls stamp with each message send time found in it.
func scanEvents(body []byte, stamp func(time.Time)) (last int64, err error) {
	last, ok := lastEventID(body)
	if !ok {
		return decodeEvents(body, stamp)
	}
	for rest := body; ; {
		i := bytes.Index(rest, []byte(stampPrefix))
		if i < 0 {
			break
		}
		rest = rest[i+len(stampPrefix):]
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if ns, err := strconv.ParseInt(string(rest[:n]), 10, 64); err == nil {
			stamp(time.Unix(0, ns))
		}
	}
	return last, nil
}

// lastEventID finds the id of the last event: the members of a success body end with
// `"events":[...]` and `,"queue_id":"..."}`, and each event ends with `"id":N}`; a string
// cannot hold either sequence unescaped. ok is false for any other shape.
func lastEventID(body []byte) (int64, bool) {
	if !bytes.HasPrefix(body, []byte(`{"result":"success"`)) {
		return 0, false
	}
	end := bytes.LastIndex(body, []byte(`],"queue_id":`))
	if end < 0 {
		return 0, false
	}
	if bytes.HasSuffix(body[:end+1], []byte(`"events":[]`)) {
		return -1, true
	}
	if end == 0 || body[end-1] != '}' {
		return 0, false
	}
	i := bytes.LastIndex(body[:end], []byte(`"id":`))
	if i < 0 {
		return 0, false
	}
	id, err := strconv.ParseInt(string(body[i+len(`"id":`):end-1]), 10, 64)
	if err != nil {
		return 0, false
	}
	return id, true
}

// decodeEvents is scanEvents by decoding the JSON.
func decodeEvents(body []byte, stamp func(time.Time)) (int64, error) {
	var res struct {
		Events []struct {
			ID      int64  `json:"id"`
			Type    string `json:"type"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"events"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return 0, err
	}
	last := int64(-1)
	for _, e := range res.Events {
		last = max(last, e.ID)
		if e.Type != "message" {
			continue
		}
		if at, ok := parseStamp(e.Message.Content); ok {
			stamp(at)
		}
	}
	return last, nil
}
