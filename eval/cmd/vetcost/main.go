// Command vetcost measures what ccvet costs under go vet on large code
// that carries no //sync: annotation, against plain go vet on the same
// code, in one run (issue 5, item 4).
//
// Usage, from the root of this repository (Linux only: it reads /proc):
//
//	go run ./eval/cmd/vetcost [-modules m@v,...] [-ccvet PATH] [-n RUNS] [-o report.md]
//
// The default modules are github.com/cometbft/cometbft@v1.0.1,
// go.etcd.io/etcd/server/v3@v3.6.0 and
// github.com/ethereum/go-ethereum@v1.16.7. Without -ccvet, ccvet is built
// from this repository. The markdown report goes to standard output (and to
// -o); progress goes to standard error.
//
// # Method
//
// For each module:
//
//  1. go mod download -json M@V finds the module in the module cache; its
//     tree is copied to a work directory, writable. A replace directive of
//     go.mod that points at a local directory the module zip does not
//     contain (etcd's ../api and friends) is dropped when the module it
//     replaces is required, so that the required version is used; the
//     report lists such edits.
//  2. go mod download, then go list -deps -test ./... with GOFLAGS=-mod=mod
//     (to complete go.sum after such an edit). Every go command runs with
//     GOWORK=off (cometbft's zip ships a go.work), GOTOOLCHAIN=local and a
//     private GOCACHE; the measured ones with GOFLAGS empty.
//  3. Warm-up, in the private GOCACHE: go build ./..., then go vet
//     -vettool=nopvet -nop=true ./... . The go command caches vet results
//     in GOCACHE, keyed by the vet tool's ID (its -V=full output), its
//     flags and the package's inputs; a repeated identical go vet
//     re-runs no vet tool at all. The warm-up's vet tool and flag are used
//     by no measured run, so it leaves every measured run's vet results
//     cold, while it does build what vet needs (cgo, test variants, the
//     vet configurations the go command caches with the build).
//  4. Measured runs: -n rounds; each round runs every tool once, the order
//     rotating from round to round. Before every run the warmed GOCACHE is
//     copied to a fresh directory (not timed), so each run has a warm build
//     cache and cold vet results. A run is go vet [-vettool=TOOL]
//     -debug-actiongraph=FILE ./... in the module root; the action graph
//     (written by the go command at the end, not part of the tool's
//     work) shows which steps ran commands: a build step that ran marks the
//     run as not warm, and the vet steps give the breakdown below.
//
// The tools: "go vet" is the go command's own vet; "ccvet" the suite
// (-vettool); "nop" is ./nopvet, a unitchecker with one analyzer that does
// nothing but declares a fact type, as ccvet's annotations analyzer does:
// the fixed cost of any unitchecker vet tool (one process per package,
// parse and type-check from source, export data and facts for every
// dependency, standard library included); "empty" is ./emptyvet, a vet
// tool that parses nothing and writes empty facts files: the go command's
// work and one process per package. -baselines selects nop and empty.
//
// Figures per run: wall time; CPU, user plus system, of the go command and
// all its descendants (rusage of the waited-for process tree); the largest
// single process's maximum RSS (ru_maxrss of that rusage: the largest of
// the tree, often the go command itself); the peak of the summed RSS of
// the whole process tree, sampled from /proc every 50 ms (pages shared
// between processes count once per process; processes shorter than a
// sample can be missed); the load average before and after, since other
// work on the machine inflates wall time more than CPU time. The summary
// takes the median of each figure over the runs of a tool.
//
// ccvet must print nothing and exit 0 on code without annotations: any
// output or non-zero exit of ccvet, nop or empty is listed at the top of
// the report as a failure. Plain go vet may report findings of its own on
// these modules; its exit status and output are recorded, not judged.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const defaultModules = "github.com/cometbft/cometbft@v1.0.1,go.etcd.io/etcd/server/v3@v3.6.0,github.com/ethereum/go-ethereum@v1.16.7"

// A tool is one contender: go vet itself (path "") or a -vettool.
type tool struct {
	name string
	path string // "" for plain go vet
}

// A run is one measured go vet.
type run struct {
	tool      string
	round     int
	wall      time.Duration
	cpu       time.Duration // user+sys of the whole waited-for tree
	maxRSS    int64         // bytes, largest single process (ru_maxrss)
	treeRSS   int64         // bytes, peak of the summed RSS of the tree
	maxProcs  int           // most processes of the tree seen in one sample
	exit      int
	output    []string // stdout and stderr lines, in arrival order
	loadStart string
	loadEnd   string
	graph     *graphStats // nil if the action graph could not be read
}

// graphStats summarises the action graph of one run.
type graphStats struct {
	buildSteps   []string // non-vet actions that ran a command: build cache not warm
	vetRuns      int      // vet actions that ran the tool
	rootRuns     int      // of which on the vetted packages themselves
	rootCPU      time.Duration
	depCPU       time.Duration // dependencies outside the standard library (facts only)
	stdCPU       time.Duration // standard library dependencies (facts only)
	vetCPU       time.Duration // all vet processes
	maxRootCPU   time.Duration
	maxRootPkg   string
	maxDepCPU    time.Duration
	maxDepPkg    string
	vetRealTotal time.Duration
}

// A moduleResult is the set-up and the runs of one module.
type moduleResult struct {
	module   string
	dir      string
	edits    []string
	setup    []string // timed set-up steps
	warmVet  string   // exit and output of the warm-up vet
	cacheMB  int64
	runs     []*run
	failures []string
	err      error
}

func main() {
	modules := flag.String("modules", defaultModules, "comma-separated `module@version` list")
	ccvetPath := flag.String("ccvet", "", "ccvet `binary` to measure (default: built from this repository)")
	n := flag.Int("n", 2, "measured `runs` of each tool per module")
	outFile := flag.String("o", "", "also write the markdown report to this `file`")
	baselines := flag.String("baselines", "nop,empty", "comma-separated baseline vet tools to measure too: nop, empty, or none")
	workDir := flag.String("work", "", "work `directory` (default: a temporary one, removed at the end)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./eval/cmd/vetcost [flags]\n\nMeasures go vet -vettool=ccvet against plain go vet (see go doc ./eval/cmd/vetcost).\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if runtime.GOOS != "linux" {
		fatalf("vetcost reads /proc: Linux only")
	}

	work := *workDir
	if work == "" {
		d, err := os.MkdirTemp("", "vetcost-")
		if err != nil {
			fatalf("%v", err)
		}
		work = d
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		fatalf("%v", err)
	}
	work, _ = filepath.Abs(work)

	// The tools.
	bin := filepath.Join(work, "bin")
	repo, err := repoDir()
	if err != nil {
		fatalf("run vetcost from this repository (go run ./eval/cmd/vetcost): %v", err)
	}
	build := func(name, pkg string) string {
		out := filepath.Join(bin, name)
		logf("building %s", pkg)
		if o, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			fatalf("go build %s: %v\n%s", pkg, err, o)
		}
		return out
	}
	ccvet := *ccvetPath
	if ccvet == "" {
		ccvet = build("ccvet", "github.com/ccvet/ccvet/cmd/ccvet")
	} else if ccvet, err = filepath.Abs(ccvet); err != nil {
		fatalf("%v", err)
	}
	nopvet := build("nopvet", "github.com/ccvet/ccvet/eval/cmd/vetcost/nopvet")
	tools := []tool{{"go vet", ""}, {"ccvet", ccvet}}
	for _, b := range strings.Split(*baselines, ",") {
		switch strings.TrimSpace(b) {
		case "nop":
			tools = append(tools, tool{"nop", nopvet})
		case "empty":
			tools = append(tools, tool{"empty", build("emptyvet", "github.com/ccvet/ccvet/eval/cmd/vetcost/emptyvet")})
		case "", "none":
		default:
			fatalf("-baselines: unknown baseline %q", b)
		}
	}

	hdr := header(repo, ccvet, *ccvetPath != "", *n, tools)
	var results []*moduleResult
	report := func() string {
		return hdr + body(results, tools)
	}
	for _, m := range strings.Split(*modules, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		mdir := filepath.Join(work, sanitize(m))
		res := &moduleResult{module: m, dir: mdir}
		results = append(results, res)
		res.err = measureModule(res, tools, nopvet, *n)
		if res.err != nil {
			logf("%s: %v", m, res.err)
		}
		if *workDir == "" {
			os.RemoveAll(mdir)
		}
		if *outFile != "" { // keep partial results
			if err := os.WriteFile(*outFile, []byte(report()), 0o644); err != nil {
				fatalf("%v", err)
			}
		}
	}
	fmt.Print(report())
}

// measureModule prepares one module and runs the measured go vets.
func measureModule(res *moduleResult, tools []tool, nopvet string, n int) error {
	if err := os.MkdirAll(res.dir, 0o755); err != nil {
		return err
	}
	src := filepath.Join(res.dir, "src")
	warm := filepath.Join(res.dir, "cache-warm")
	env := func(gocache, goflags string) []string {
		return append(cleanEnv(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS="+goflags, "GOCACHE="+gocache)
	}
	step := func(name string, dir string, environ []string, args ...string) ([]byte, error) {
		logf("%s: %s", res.module, name)
		start := time.Now()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = environ
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		res.setup = append(res.setup, fmt.Sprintf("%s: %.1f s", name, time.Since(start).Seconds()))
		if err != nil {
			return out, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, tail(stderr.String(), 40))
		}
		return out, nil
	}

	// 1. Find and copy the module.
	out, err := step("go mod download -json", res.dir, env(warm, ""), "mod", "download", "-json", res.module)
	if err != nil {
		return err
	}
	var mod struct{ Dir, Error string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Error != "" || mod.Dir == "" {
		return fmt.Errorf("go mod download %s: %v %s", res.module, err, mod.Error)
	}
	os.RemoveAll(src)
	if err := os.CopyFS(src, os.DirFS(mod.Dir)); err != nil {
		return fmt.Errorf("copying %s: %v", mod.Dir, err)
	}
	edits, err := dropMissingReplaces(src, env(warm, ""))
	if err != nil {
		return err
	}
	res.edits = edits

	// 2. Dependencies.
	if _, err := step("go mod download", src, env(warm, "-mod=mod"), "mod", "download"); err != nil {
		return err
	}
	if _, err := step("go list -deps -test ./...", src, env(warm, "-mod=mod"), "list", "-deps", "-test", "./..."); err != nil {
		return err
	}

	// 3. Warm the build cache; leave every measured vet result cold.
	if _, err := step("go build ./... (warm-up)", src, env(warm, ""), "build", "./..."); err != nil {
		// Some modules have packages that do not build alone; vet
		// below builds what it needs.
		res.setup = append(res.setup, "go build ./... failed: "+firstLine(err.Error()))
	}
	logf("%s: go vet -vettool=nopvet -nop=true ./... (warm-up)", res.module)
	wr := measure(src, env(warm, ""), tool{"nop", nopvet}, []string{"-nop=true"}, "")
	res.setup = append(res.setup, fmt.Sprintf("go vet -vettool=nopvet -nop=true ./... (warm-up): %.1f s", wr.wall.Seconds()))
	res.warmVet = fmt.Sprintf("exit %d, %d output lines", wr.exit, len(wr.output))
	if wr.exit != 0 || len(wr.output) > 0 {
		res.failures = append(res.failures, fmt.Sprintf("warm-up vet (nopvet): exit %d, output:\n%s", wr.exit, indent(head(wr.output, 20))))
	}
	res.cacheMB = dirSize(warm) >> 20

	// 4. Measured runs.
	for round := 0; round < n; round++ {
		order := slices.Clone(tools)
		k := round % len(order)
		order = append(order[k:], order[:k]...)
		for _, t := range order {
			cache := filepath.Join(res.dir, "cache-run")
			os.RemoveAll(cache)
			if err := os.CopyFS(cache, os.DirFS(warm)); err != nil {
				return fmt.Errorf("copying the warm cache: %v", err)
			}
			graphFile := filepath.Join(res.dir, fmt.Sprintf("actiongraph-%s-%d.json", sanitize(t.name), round+1))
			logf("%s: round %d: %s", res.module, round+1, t.name)
			r := measure(src, env(cache, ""), t, nil, graphFile)
			r.round = round + 1
			r.graph = readGraph(graphFile)
			os.RemoveAll(cache)
			logf("%s: round %d: %s: %.1f s wall, %.1f s CPU, exit %d, %d output lines", res.module, round+1, t.name, r.wall.Seconds(), r.cpu.Seconds(), r.exit, len(r.output))
			res.runs = append(res.runs, r)
			if t.path != "" && (r.exit != 0 || len(r.output) > 0) {
				res.failures = append(res.failures, fmt.Sprintf("%s, round %d: exit %d, %d output lines:\n%s", t.name, r.round, r.exit, len(r.output), indent(head(r.output, 30))))
			}
			if r.graph == nil {
				res.failures = append(res.failures, fmt.Sprintf("%s, round %d: no action graph", t.name, r.round))
			} else if len(r.graph.buildSteps) > 0 {
				res.failures = append(res.failures, fmt.Sprintf("%s, round %d: build cache not warm, %d build steps ran: %s", t.name, r.round, len(r.graph.buildSteps), strings.Join(head(r.graph.buildSteps, 5), ", ")))
			}
		}
	}
	return nil
}

// measure runs go vet [-vettool=t.path] [flags] [-debug-actiongraph=graph]
// ./... in dir and measures it.
func measure(dir string, environ []string, t tool, flags []string, graph string) *run {
	args := []string{"vet"}
	if t.path != "" {
		args = append(args, "-vettool="+t.path)
	}
	args = append(args, flags...)
	if graph != "" {
		args = append(args, "-debug-actiongraph="+graph)
	}
	args = append(args, "./...")
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = environ
	r := &run{tool: t.name}
	var lines lineBuffer
	cmd.Stdout = &lines
	cmd.Stderr = &lines
	r.loadStart = loadavg()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.exit = -1
		r.output = []string{err.Error()}
		return r
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.treeRSS, r.maxProcs = sampleTree(cmd.Process.Pid, stop)
	}()
	err := cmd.Wait()
	r.wall = time.Since(start)
	close(stop)
	wg.Wait()
	r.loadEnd = loadavg()
	ps := cmd.ProcessState
	if ps == nil {
		r.exit = -1
		r.output = append(lines.lines(), err.Error())
		return r
	}
	r.exit = ps.ExitCode()
	r.cpu = ps.UserTime() + ps.SystemTime()
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = int64(ru.Maxrss) << 10 // KiB on Linux
	}
	r.output = lines.lines()
	return r
}

// sampleTree samples the summed RSS of pid and its descendants every 50 ms
// until stop is closed, and returns the peak and the most processes seen.
func sampleTree(pid int, stop <-chan struct{}) (peak int64, procs int) {
	page := int64(os.Getpagesize())
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		sum, n := treeRSS(pid)
		peak = max(peak, sum*page)
		procs = max(procs, n)
		select {
		case <-stop:
			return peak, procs
		case <-tick.C:
		}
	}
}

// treeRSS returns the summed resident pages of pid and its descendants and
// their number, from /proc/PID/stat.
func treeRSS(root int) (pages int64, n int) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, 0
	}
	type proc struct {
		ppid int
		rss  int64
	}
	procs := make(map[int]proc, len(ents))
	children := make(map[int][]int)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited
		}
		// pid (comm) state ppid ... rss is field 24; comm may contain
		// spaces and parentheses, so split after the last ')'.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) < 22 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		rss, _ := strconv.ParseInt(f[21], 10, 64)
		procs[pid] = proc{ppid, rss}
		children[ppid] = append(children[ppid], pid)
	}
	if _, ok := procs[root]; !ok {
		return 0, 0
	}
	stack := []int{root}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pages += procs[p].rss
		n++
		stack = append(stack, children[p]...)
	}
	return pages, n
}

// readGraph reads a -debug-actiongraph file.
func readGraph(file string) *graphStats {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var acts []struct {
		Mode     string
		Package  string
		VetxOnly bool
		Cmd      []string
		CmdReal  time.Duration
		CmdUser  time.Duration
		CmdSys   time.Duration
	}
	if err := json.Unmarshal(data, &acts); err != nil {
		return nil
	}
	g := new(graphStats)
	for _, a := range acts {
		if len(a.Cmd) == 0 {
			continue
		}
		if a.Mode != "vet" {
			g.buildSteps = append(g.buildSteps, a.Mode+" "+a.Package)
			continue
		}
		cpu := a.CmdUser + a.CmdSys
		g.vetRuns++
		g.vetCPU += cpu
		g.vetRealTotal += a.CmdReal
		switch {
		case !a.VetxOnly:
			g.rootRuns++
			g.rootCPU += cpu
			if cpu > g.maxRootCPU {
				g.maxRootCPU, g.maxRootPkg = cpu, a.Package
			}
		case isStd(a.Package):
			g.stdCPU += cpu
		default:
			g.depCPU += cpu
			if cpu > g.maxDepCPU {
				g.maxDepCPU, g.maxDepPkg = cpu, a.Package
			}
		}
	}
	return g
}

// isStd reports whether an import path is in the standard library: its
// first element has no dot.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// dropMissingReplaces drops the replace directives of src/go.mod that point
// at a local directory missing from the module's tree and replace a
// required module, and returns a description of each edit.
func dropMissingReplaces(src string, environ []string) ([]string, error) {
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir = src
	cmd.Env = environ
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod edit -json: %v", err)
	}
	type modVer struct{ Path, Version string }
	var gm struct {
		Require []modVer
		Replace []struct{ Old, New modVer }
	}
	if err := json.Unmarshal(out, &gm); err != nil {
		return nil, err
	}
	required := make(map[string]string)
	for _, r := range gm.Require {
		required[r.Path] = r.Version
	}
	var args, edits []string
	for _, r := range gm.Replace {
		if r.New.Version != "" {
			continue // a module, not a directory
		}
		if _, err := os.Stat(filepath.Join(src, r.New.Path)); err == nil {
			continue
		}
		v, ok := required[r.Old.Path]
		if !ok {
			continue // a guard against a module that is not in the graph
		}
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		args = append(args, "-dropreplace="+old)
		edits = append(edits, fmt.Sprintf("dropped `replace %s => %s` (directory not in the module zip): %s %s from the proxy", old, r.New.Path, r.Old.Path, v))
	}
	if len(args) > 0 {
		cmd := exec.Command("go", append([]string{"mod", "edit"}, args...)...)
		cmd.Dir = src
		cmd.Env = environ
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go mod edit: %v\n%s", err, out)
		}
	}
	return edits, nil
}

// header describes the machine, the tools and the method.
func header(repo, ccvet string, given bool, n int, tools []tool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Cost of ccvet under go vet on un-annotated code\n\n")
	fmt.Fprintf(&b, "Generated by `go run ./eval/cmd/vetcost` on %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	goVersion, _ := exec.Command("go", "version").Output()
	fmt.Fprintf(&b, "- machine: %s/%s, %d CPUs (runtime.NumCPU), %s; %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), memTotal(), strings.TrimSpace(string(goVersion)))
	src := "built from " + repo
	if given {
		src = "given with -ccvet"
	} else if rev, err := exec.Command("git", "-C", repo, "describe", "--always", "--dirty").Output(); err == nil {
		src += " at " + strings.TrimSpace(string(rev))
	}
	fmt.Fprintf(&b, "- ccvet: %s (%s)\n", ccvet, src)
	var names []string
	for _, t := range tools {
		names = append(names, t.name)
	}
	fmt.Fprintf(&b, "- tools: %s; %d rounds, each tool once per round, order rotating\n", strings.Join(names, ", "), n)
	fmt.Fprintf(&b, "- every run: warm build cache, cold vet results (a fresh copy of a warmed GOCACHE), `GOWORK=off GOTOOLCHAIN=local GOFLAGS=`, `go vet [-vettool=TOOL] -debug-actiongraph=FILE ./...` in the module root\n")
	fmt.Fprintf(&b, "- CPU: user+sys of the go command and its descendants; peak one: largest single process's max RSS; peak tree: peak of the summed RSS of the process tree, sampled every 50 ms\n\n")
	return b.String()
}

// body is the report of the modules measured so far.
func body(results []*moduleResult, tools []tool) string {
	var b strings.Builder
	// Failures first.
	var fails []string
	for _, res := range results {
		if res.err != nil {
			fails = append(fails, fmt.Sprintf("%s: set-up or measurement failed: %v", res.module, res.err))
		}
		for _, f := range res.failures {
			fails = append(fails, res.module+": "+f)
		}
	}
	if len(fails) > 0 {
		fmt.Fprintf(&b, "## FAILURES\n\n")
		for _, f := range fails {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(f, "\n", "\n  "))
		}
		b.WriteString("\n")
	} else if len(results) > 0 {
		fmt.Fprintf(&b, "No failure: ccvet and the baselines printed nothing and exited 0 on every module, and no measured run had a build step to run.\n\n")
	}

	// Summary: medians, go vet against ccvet.
	fmt.Fprintf(&b, "## Summary (medians)\n\n")
	fmt.Fprintf(&b, "| module | go vet wall | go vet CPU | go vet peak one | go vet peak tree | ccvet wall | ccvet CPU | ccvet peak one | ccvet peak tree | ratio wall | ratio CPU | ratio peak one | ratio peak tree |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, res := range results {
		p, c := summarize(res.runs, "go vet"), summarize(res.runs, "ccvet")
		if p == nil || c == nil {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", res.module,
			secs(p.wall), secs(p.cpu), mb(p.maxRSS), mb(p.treeRSS),
			secs(c.wall), secs(c.cpu), mb(c.maxRSS), mb(c.treeRSS),
			ratio(c.wall, p.wall), ratio(c.cpu, p.cpu), ratio(c.maxRSS, p.maxRSS), ratio(c.treeRSS, p.treeRSS))
	}
	b.WriteString("\nRatios are ccvet / go vet; the target is at most 0.5 for time.\n\n")

	// Baselines.
	if len(tools) > 2 {
		fmt.Fprintf(&b, "## Baselines (medians; ratios to go vet)\n\n")
		fmt.Fprintf(&b, "| module | tool | wall | CPU | peak one | peak tree | wall / go vet | CPU / go vet |\n|---|---|---|---|---|---|---|---|\n")
		for _, res := range results {
			p := summarize(res.runs, "go vet")
			if p == nil {
				continue
			}
			for _, t := range tools {
				s := summarize(res.runs, t.name)
				if s == nil {
					continue
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", res.module, t.name, secs(s.wall), secs(s.cpu), mb(s.maxRSS), mb(s.treeRSS), ratio(s.wall, p.wall), ratio(s.cpu, p.cpu))
			}
		}
		b.WriteString("\n")
	}

	// Where the CPU goes, from the action graphs.
	fmt.Fprintf(&b, "## CPU of the vet tool processes, from the action graph (medians)\n\n")
	fmt.Fprintf(&b, "\"vetted\": the packages of the module (diagnostics); \"deps\": their dependencies outside the standard library and \"std\": the standard library ones, both vetted for facts only. \"go command\": total CPU minus the vet processes.\n\n")
	fmt.Fprintf(&b, "| module | tool | vet processes | vetted (n) | vetted CPU | deps CPU | std CPU | all vet processes | go command | costliest vetted package |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, res := range results {
		for _, t := range tools {
			var gs []*run
			for _, r := range res.runs {
				if r.tool == t.name && r.graph != nil {
					gs = append(gs, r)
				}
			}
			if len(gs) == 0 {
				continue
			}
			med := func(f func(r *run) time.Duration) time.Duration {
				return median(gs, f)
			}
			g := gs[0].graph
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s (%s) |\n", res.module, t.name, g.vetRuns, g.rootRuns,
				secs(med(func(r *run) time.Duration { return r.graph.rootCPU })),
				secs(med(func(r *run) time.Duration { return r.graph.depCPU })),
				secs(med(func(r *run) time.Duration { return r.graph.stdCPU })),
				secs(med(func(r *run) time.Duration { return r.graph.vetCPU })),
				secs(med(func(r *run) time.Duration { return r.cpu - r.graph.vetCPU })),
				g.maxRootPkg, secs(g.maxRootCPU))
		}
	}
	b.WriteString("\n")

	// Every run.
	for _, res := range results {
		fmt.Fprintf(&b, "## %s\n\n", res.module)
		if res.err != nil {
			fmt.Fprintf(&b, "Failed: %s\n\n", strings.ReplaceAll(res.err.Error(), "\n", "\n    "))
		}
		for _, e := range res.edits {
			fmt.Fprintf(&b, "- go.mod: %s\n", e)
		}
		for _, s := range res.setup {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		fmt.Fprintf(&b, "- warm-up vet: %s; warm GOCACHE %d MB\n\n", res.warmVet, res.cacheMB)
		if len(res.runs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "| round | tool | wall | CPU | peak one | peak tree | processes | exit | output lines | load avg before / after |\n|---|---|---|---|---|---|---|---|---|---|\n")
		for _, r := range res.runs {
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %d | %d | %d | %s / %s |\n", r.round, r.tool, secs(r.wall), secs(r.cpu), mb(r.maxRSS), mb(r.treeRSS), r.maxProcs, r.exit, len(r.output), r.loadStart, r.loadEnd)
		}
		b.WriteString("\n")
		for _, r := range res.runs {
			if r.tool == "go vet" && r.round == 1 && len(r.output) > 0 {
				fmt.Fprintf(&b, "go vet's own output (round 1, exit %d, %d lines, first 20):\n\n```\n%s\n```\n\n", r.exit, len(r.output), strings.Join(head(r.output, 20), "\n"))
			}
		}
	}
	return b.String()
}

// summary is the median of each figure over a tool's runs.
type summary struct {
	wall, cpu       time.Duration
	maxRSS, treeRSS int64
}

func summarize(runs []*run, name string) *summary {
	var rs []*run
	for _, r := range runs {
		if r.tool == name {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil
	}
	return &summary{
		wall:    median(rs, func(r *run) time.Duration { return r.wall }),
		cpu:     median(rs, func(r *run) time.Duration { return r.cpu }),
		maxRSS:  median(rs, func(r *run) int64 { return r.maxRSS }),
		treeRSS: median(rs, func(r *run) int64 { return r.treeRSS }),
	}
}

func median[T time.Duration | int64](rs []*run, f func(*run) T) T {
	vs := make([]T, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	if len(vs)%2 == 1 {
		return vs[len(vs)/2]
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
}

func secs(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
func mb(b int64) string           { return fmt.Sprintf("%d MB", b>>20) }

func ratio[T time.Duration | int64](a, b T) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// lineBuffer collects the lines of stdout and stderr.
type lineBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lineBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lineBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(l.buf.Bytes()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// repoDir returns the root of the ccvet module, which must be the current
// one.
func repoDir() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Dir}}").Output()
	if err != nil {
		return "", err
	}
	path, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if path != "github.com/ccvet/ccvet" {
		return "", fmt.Errorf("current module is %q", path)
	}
	return dir, nil
}

// cleanEnv is the environment without the variables vetcost sets.
func cleanEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		k, _, _ := strings.Cut(e, "=")
		switch k {
		case "GOWORK", "GOTOOLCHAIN", "GOFLAGS", "GOCACHE":
			continue
		}
		env = append(env, e)
	}
	return env
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return f[0] // 1-minute average
}

func memTotal() string {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "? memory"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return fmt.Sprintf("%.1f GB memory", float64(kb)/(1<<20))
		}
	}
	return "? memory"
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-':
			return r
		}
		return '_'
	}, s)
}

func head(lines []string, n int) []string {
	if len(lines) > n {
		return append(slices.Clip(lines[:n]), fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return lines
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func indent(lines []string) string {
	return "    " + strings.Join(lines, "\n    ")
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "vetcost: %s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "vetcost: "+format+"\n", args...)
	os.Exit(1)
}
