package scaling

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/gctune"
)

// The benchmarks analyse each protocol in a child process (this test
// binary, re-executed with childEnv set), which the benchmark kills when
// one analysis takes longer than the cap: some sizes take minutes or more
// with an engine, and an analysis in process cannot be stopped. The child
// loads the protocol once and times only the analysis, b.N times; the
// benchmark reports that time as its ns/op.

// childEnv names the variable that makes the test binary a child: its
// value is the JSON of a job.
const childEnv = "CCVET_SCALING_CHILD"

// profileEnv names a file for the CPU profile of each child's analyses
// (go test -bench PBFT150/v2 with CCVET_SCALING_PROFILE=cpu.out); the
// last child's is kept.
const profileEnv = "CCVET_SCALING_PROFILE"

// capEnv names the variable that sets the cap of one analysis (a
// time.ParseDuration string); defaultCap when unset.
const capEnv = "CCVET_SCALING_CAP"

const defaultCap = 60 * time.Second

// A job is what a child analyses.
type job struct {
	Engine string
	Target string // a generated protocol's name, or pbft150
	Rounds int
	Types  int
	N      int // analyses to run
}

// A jobResult is what a child prints.
type jobResult struct {
	Analysis time.Duration // of the N analyses together
	CPU      time.Duration // of the N analyses together, all threads
	Findings []string      // of the last analysis
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		gctune.Apply() // as the ccvet command runs
		os.Exit(runChild(spec))
	}
	os.Exit(m.Run())
}

func runChild(spec string) int {
	var j job
	if err := json.Unmarshal([]byte(spec), &j); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", childEnv, err)
		return 2
	}
	dir, err := os.MkdirTemp("", "ccvet-scaling")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	tg := target{name: j.Target, rounds: j.Rounds, types: j.Types}
	pkgs, err := load(dir, []target{tg})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var res jobResult
	if out := os.Getenv(profileEnv); out != "" {
		// The child's CPU profile: the benchmark's own -test.cpuprofile
		// sees only the parent, which waits.
		f, err := os.Create(out)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}
	start, cpu := time.Now(), cpuTime()
	for range j.N {
		if res.Findings, err = analyse(j.Engine, pkgs[tg.name]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	res.Analysis, res.CPU = time.Since(start), cpuTime()-cpu
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// analysisCap returns the cap of one analysis.
func analysisCap(b *testing.B) time.Duration {
	s := os.Getenv(capEnv)
	if s == "" {
		return defaultCap
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		b.Fatalf("%s=%q: want a positive duration such as 90s", capEnv, s)
	}
	return d
}

// capped records, per engine and number of types, the smallest number of
// rounds whose analysis reached the cap: the larger ones are skipped, as
// the cost grows with the rounds.
var capped = struct {
	sync.Mutex
	rounds map[string]int
}{rounds: make(map[string]int)}

// spawn runs j in a child process, with CCVET_TAGFLOW set to j's engine:
// analyzer.SuiteWith(engine.Select("v2")) would still run the first
// engine in full, because syncdirective requires the engine and the
// condition analyzers that CCVET_TAGFLOW selects. It kills the child when
// the j.N analyses take longer than j.N times limit (plus time to load),
// and then returns a nil result and no error.
func spawn(j job, limit time.Duration) (*jobResult, error) {
	spec, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(j.N)*limit+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec), "CCVET_TAGFLOW="+j.Engine)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, stderr.Bytes())
	}
	var res jobResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return nil, fmt.Errorf("bad child output: %v\n%s", err, stdout.Bytes())
	}
	return &res, nil
}

// runJob runs j in a child, b.N analyses, and reports their mean time as
// ns/op, their CPU time as cpu-ns/op (the steadier figure on a shared
// machine), and the findings of one analysis (findings) and whether the
// engine gave up (gaveup: a "loop is too large to analyse" finding) as
// metrics. It returns false if the analysis reached the cap.
func runJob(b *testing.B, j job) bool {
	limit := analysisCap(b)
	j.N = b.N
	// The timer runs on, so that the benchmark's choice of b.N sees the
	// child's whole cost; ns/op is then set to the analysis alone.
	res, err := spawn(j, limit)
	if err != nil {
		b.Fatal(err)
	}
	if res == nil {
		b.ReportMetric(limit.Seconds(), "cap-s")
		return false
	}
	gaveUp := 0
	for _, f := range res.Findings {
		if strings.Contains(f, "the loop is too large to analyse") {
			gaveUp = 1
		}
	}
	b.ReportMetric(float64(res.Analysis.Nanoseconds())/float64(b.N), "ns/op")
	b.ReportMetric(float64(res.CPU.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(res.Findings)), "findings")
	b.ReportMetric(float64(gaveUp), "gaveup")
	return true
}

// BenchmarkScaling analyses the generated protocols of R rounds and T
// message types (see Protocol) with each engine: sub-benchmarks
// ENGINE/R=R/T=T, whose ns/op is one analysis of the package, loading
// excluded. An analysis is capped at one minute (CCVET_SCALING_CAP): the
// benchmark then reports cap-s, the cap in seconds, and skips the larger
// R of the same engine and T. Run it with
//
//	go test ./eval/scaling -run '^$' -bench Scaling -benchtime 1x
func BenchmarkScaling(b *testing.B) {
	for _, eng := range engines {
		b.Run(eng, func(b *testing.B) {
			for _, rounds := range []int{2, 4, 8, 16, 32} {
				for _, types := range []int{1, 2, 4, 8} {
					b.Run(fmt.Sprintf("R=%d/T=%d", rounds, types), func(b *testing.B) {
						key := fmt.Sprintf("%s/T=%d", eng, types)
						capped.Lock()
						r, ok := capped.rounds[key]
						capped.Unlock()
						if ok && rounds > r {
							b.Skipf("R=%d reached the cap", r)
						}
						tg := generated(rounds, types)
						if !runJob(b, job{Engine: eng, Target: tg.name, Rounds: rounds, Types: types}) {
							capped.Lock()
							capped.rounds[key] = rounds
							capped.Unlock()
						}
					})
				}
			}
		})
	}
}

// BenchmarkPBFT150 analyses testdata/src/pbft150, a 150-line loop whose
// three phases call a receive helper with a three-case type switch, with
// each engine (issue 20's target: under 50 ms).
func BenchmarkPBFT150(b *testing.B) {
	for _, eng := range engines {
		b.Run(eng, func(b *testing.B) {
			runJob(b, job{Engine: eng, Target: pbft150.name})
		})
	}
}
