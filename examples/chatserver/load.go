package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/storage"
)

// loadFlags prepare the server for a load test (examples/loadgen): many users and channels,
// and a debug endpoint reporting the process's memory.
type loadFlags struct {
	LoadUsers    int  `help:"With --dev: add this many members (user0@load.example.com, ...) for load tests." name:"load-users"`
	LoadChannels int  `help:"With --load-users: add this many public channels (channel 0, channel 1, ...)." name:"load-channels" default:"20"`
	LoadSubs     int  `help:"With --load-users: subscribe each load user to this many of those channels." name:"load-subs" default:"20"`
	DebugVars    bool `help:"Serve GET /debug/vars (memory statistics of the process as JSON) and the Go profiler under /debug/pprof/ (for load tests; do not expose)." name:"debug-vars"`
}

// build adds the load-test users and channels.
func (l *loadFlags) build(ctx context.Context, svc *chat.Service, store storage.Storage, logger *slog.Logger) error {
	if l.LoadUsers <= 0 {
		return nil
	}
	if built, err := benchorg.Built(ctx, store); err != nil || built {
		if built {
			logger.Info("load-test organization already built; keeping it", "users", l.LoadUsers)
		}
		return err
	}
	start := time.Now()
	if _, err := benchorg.Build(ctx, svc, store, benchorg.Spec{Users: l.LoadUsers, Channels: l.LoadChannels, SubsPerUser: l.LoadSubs}); err != nil {
		return err
	}
	logger.Info("load-test organization built", "users", l.LoadUsers, "channels", l.LoadChannels, "subs_per_user", l.LoadSubs, "took", time.Since(start))
	return nil
}

// validate checks the load flags against the others.
func (c *serveCmd) validateLoad() error {
	if c.LoadUsers > 0 && !c.Dev {
		return errors.New("--load-users needs --dev (load users log in through dev_fetch_api_key)")
	}
	return nil
}

// handler adds /debug/vars and /debug/pprof/ in front of api when asked.
func (l *loadFlags) handler(api http.Handler) http.Handler {
	if !l.DebugVars {
		return api
	}
	mux := http.NewServeMux()
	mux.Handle("/", api)
	mux.HandleFunc("GET /debug/vars", serveDebugVars)
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	return mux
}

// DebugVars is the body of GET /debug/vars.
type DebugVars struct {
	RSSBytes     uint64 `json:"rss_bytes"`
	HeapAlloc    uint64 `json:"heap_alloc"`
	HeapInuse    uint64 `json:"heap_inuse"`
	HeapSys      uint64 `json:"heap_sys"`
	HeapReleased uint64 `json:"heap_released"`
	StackInuse   uint64 `json:"stack_inuse"`
	Sys          uint64 `json:"sys"`
	NumGC        uint32 `json:"num_gc"`
	Goroutines   int    `json:"goroutines"`
	GOMAXPROCS   int    `json:"gomaxprocs"`
	PauseTotalNs uint64 `json:"pause_total_ns"`
}

// serveDebugVars reports the memory statistics; with ?gc=1 it first collects garbage and
// returns the freed memory to the system (what the process needs, rather than where its
// garbage collection cycle happens to be).
func serveDebugVars(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("gc") == "1" {
		debug.FreeOSMemory() // collects garbage first
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	v := DebugVars{
		RSSBytes: residentBytes(), HeapAlloc: ms.HeapAlloc, HeapInuse: ms.HeapInuse, HeapSys: ms.HeapSys,
		HeapReleased: ms.HeapReleased, StackInuse: ms.StackInuse, Sys: ms.Sys, NumGC: ms.NumGC, Goroutines: runtime.NumGoroutine(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		PauseTotalNs: ms.PauseTotalNs,
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// residentBytes reads VmRSS from /proc/self/status (0 where there is none).
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseUint(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}
