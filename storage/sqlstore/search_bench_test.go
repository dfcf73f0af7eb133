package sqlstore_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// BenchmarkSearchMillion measures GET /messages' storage query on an organization with
// CHAT_BENCH_SEARCH_MESSAGES messages (1000000 for BENCHMARKS.md; the benchmark is skipped
// when it is unset, so it stays out of the normal run): one-word searches of a rare, a
// medium and a common word, a phrase, a search within a channel, and a channel + topic
// narrow, each the newest 100 matches of a user who received every message. The fixture is
// bulk-loaded once per backend (multi-row INSERTs; PostgreSQL's GIN index is rebuilt after
// the load). Each figure is the p50 (and p95) over the benchmark's iterations.
//
//	CHAT_BENCH_SEARCH_MESSAGES=1000000 go test -run '^$' -bench SearchMillion -benchtime 40x ./storage/sqlstore/
func BenchmarkSearchMillion(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("CHAT_BENCH_SEARCH_MESSAGES"))
	if n <= 0 {
		b.Skip("CHAT_BENCH_SEARCH_MESSAGES is unset: the million-message search benchmark is opt-in")
	}
	list := []struct {
		name string
		open func(b *testing.B) *sqlstore.Store
	}{{"sqlite", func(b *testing.B) *sqlstore.Store {
		return mustOpen(b, "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
	}}}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		list = append(list, struct {
			name string
			open func(b *testing.B) *sqlstore.Store
		}{"postgres", func(b *testing.B) *sqlstore.Store { return mustOpen(b, freshSchema(b, base)) }})
	}
	for _, be := range list {
		b.Run(be.name, func(b *testing.B) {
			s := be.open(b)
			start := time.Now()
			fx := loadMillion(b, s, n)
			b.Logf("%s: loaded %d messages in %s; document frequency of the searched words: %v", be.name, n, time.Since(start).Round(time.Second), fx.freq)
			for _, c := range fx.cases() {
				b.Run(c.name, func(b *testing.B) { benchQuery(b, s, c.q) })
			}
		})
	}
}

// millionFixture is what loadMillion made: the reader, the channels and the words searched.
type millionFixture struct {
	reader   users.ID
	channels []channels.ID
	words    [3]string // rare, medium, common
	freq     map[string]int
	phrase   string
}

type benchCase struct {
	name string
	q    storage.MessageQuery
}

func (f millionFixture) cases() []benchCase {
	base := storage.MessageQuery{User: f.reader, HistoryChannels: f.channels, Newest: true, Limit: 100}
	with := func(terms ...messages.Term) storage.MessageQuery { q := base; q.Terms = terms; return q }
	search := func(s string) messages.Term {
		return messages.Term{Operator: messages.OpSearch, Text: s, Search: messages.ParseSearch(s)}
	}
	return []benchCase{
		{"one-word-search/rare", with(search(f.words[0]))},
		{"one-word-search/medium", with(search(f.words[1]))},
		{"one-word-search/common", with(search(f.words[2]))},
		{"phrase-search", with(search(`"` + f.phrase + `"`))},
		{"search+channel", with(search(f.words[1]), messages.Term{Operator: messages.OpChannel, Channel: f.channels[7]})},
		{"channel+topic", with(messages.Term{Operator: messages.OpChannel, Channel: f.channels[7]},
			messages.Term{Operator: messages.OpTopic, Text: topicName(8, 123)})},
	}
}

func benchQuery(b *testing.B, s *sqlstore.Store, q storage.MessageQuery) {
	var lat []time.Duration
	var found int
	for b.Loop() {
		t0 := time.Now()
		err := s.View(b.Context(), func(tx storage.ReadTx) error {
			got, err := tx.Messages().Query(q)
			found = len(got)
			return err
		})
		lat = append(lat, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100])/1e6, "p95-ms")
	b.ReportMetric(float64(found), "matches")
}

const (
	benchChannels        = 50
	benchTopicsPerStream = 400
	benchVocabulary      = 5000
)

func topicName(c, t int) string { return fmt.Sprintf("topic %d of channel %d", t, c) }

// benchWord is word i of the fixture's vocabulary: pronounceable, distinct, stable.
func benchWord(i int) string {
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pu", "da", "fe", "gi", "ho", "ju", "be"}
	var b strings.Builder
	for i++; i > 0; i /= len(syll) {
		b.WriteString(syll[i%len(syll)])
	}
	return b.String() + "x"
}

// loadMillion bulk-loads n messages: channel messages spread over the channels and their
// topics, 5 to 30 words each drawn from a Zipf distribution over the vocabulary, every one
// received (and read) by the reader, with their search index entries.
func loadMillion(b *testing.B, s *sqlstore.Store, n int) millionFixture {
	b.Helper()
	pg := sqlstore.IsPostgres(s)
	fx := millionFixture{reader: 1, freq: map[string]int{}}
	for c := 1; c <= benchChannels; c++ {
		fx.channels = append(fx.channels, channels.ID(c))
	}
	fx.words = [3]string{benchWord(2000), benchWord(100), benchWord(10)}
	fx.phrase = benchWord(3) + " " + benchWord(4)
	watch := map[string]bool{}
	for _, w := range fx.words {
		watch[messages.SearchStems(w)[0]] = true
	}
	exec := func(q string, args ...any) {
		b.Helper()
		if err := sqlstore.ExecRaw(s, q, args...); err != nil {
			b.Fatalf("%.80s: %v", q, err)
		}
	}
	if pg {
		exec("DROP INDEX messages_search")
	} else {
		exec("PRAGMA synchronous = OFF")
	}
	r := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(r, 1.1, 1, benchVocabulary-1)
	const batch = 500
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for start := 1; start <= n; start += batch {
		end := min(n, start+batch-1)
		var msgs, rows, fts strings.Builder
		var margs, rargs, fargs []any
		for id := start; id <= end; id++ {
			c, t := r.IntN(benchChannels)+1, r.IntN(benchTopicsPerStream)
			words := make([]string, 5+r.IntN(26))
			for i := range words {
				words[i] = benchWord(int(zipf.Uint64()))
			}
			topic := topicName(c, t)
			content := strings.Join(words, " ")
			rendered := "<p>" + content + "</p>"
			doc := messages.NewSearchDoc(topic, rendered)
			seen := map[string]bool{}
			for _, st := range doc.Content {
				if watch[st] && !seen[st] {
					seen[st] = true
				}
			}
			for st := range seen {
				fx.freq[st]++
			}
			sep(&msgs, id == start)
			sep(&rows, id == start)
			margs = append(margs, id, 2, c, topic, topics.Key(topic), content, rendered, now+int64(id), "bench", 0, 0)
			if pg {
				msgs.WriteString("(?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, NULL, CAST(? AS tsvector), CAST(? AS tsvector))")
				margs = append(margs, sqlstore.TSVectorText(doc.Topic, 1), sqlstore.TSVectorText(doc.Content, 2))
			} else {
				msgs.WriteString("(?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, NULL)")
				sep(&fts, id == start)
				fts.WriteString("(?, ?, ?)")
				fargs = append(fargs, id, sqlstore.FTSText(doc.Topic), sqlstore.FTSText(doc.Content))
			}
			rows.WriteString("(?, ?, ?)")
			rargs = append(rargs, fx.reader, id, int64(messages.FlagRead))
		}
		cols := "id, sender_id, channel_id, topic, topic_key, recipients, content, rendered, timestamp, client, last_edit_timestamp, last_moved_timestamp, edit_history"
		if pg {
			cols += ", search_topic, search_content"
		}
		exec("INSERT INTO messages ("+cols+") VALUES "+msgs.String(), margs...)
		exec("INSERT INTO user_messages (user_id, message_id, flags) VALUES "+rows.String(), rargs...)
		if !pg {
			exec("INSERT INTO message_search (rowid, topic, content) VALUES "+fts.String(), fargs...)
		}
	}
	if pg {
		exec("SELECT setval(pg_get_serial_sequence('messages', 'id'), ?)", n)
		exec("CREATE INDEX messages_search ON messages USING gin ((search_topic || search_content))")
		exec("ANALYZE")
	} else {
		exec("PRAGMA synchronous = FULL")
		exec("ANALYZE")
	}
	return fx
}

func sep(b *strings.Builder, first bool) {
	if !first {
		b.WriteString(", ")
	}
}
