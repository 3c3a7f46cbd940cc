package configs

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// statDocFiles are where a user looks up a statistic: every package's doc.go
// (under the directories below), the two READMEs and the experiments' READMEs
// (experiments/render/README.md describes stats.json).
var statDocFiles = []string{"../README.md", "README.md", "../experiments/render/README.md"}

// statDocDirs are the trees whose doc.go files document statistics.
var statDocDirs = []string{"../components", "../connections", "../configs", "../functional", "../timing", "../tracing"}

// checkDocumented checks that each counter of a frame's statistics st is
// named in the documentation (words and patterns of statDocCorpus): the last
// element of its key (GPU.ROP[0].cache_hits: cache_hits; a bracketed suffix,
// client_bytes[<port>], dropped) must appear in a doc.go of the packages, in
// README.md, configs/README.md or experiments/render/README.md, as a word or
// as a pattern the text writes with a placeholder (commands_<opcode>,
// tiles_u<k>). A counter added to a unit without a word in its package
// documentation fails here. TestStatisticsIdentities runs it on the frames
// of every machine (sort-last with the coherence checker's counters too).
//
// A placeholder of one letter (<k>, <p>) stands for a number, a longer one
// (<opcode>) for a name; only snake-case words (with a '_') are patterns, so
// that a task name (draw<s>, warp<id>) documents no counter. The activity's
// generic cycles_<state> (timing.Activity) documents none either: each unit's
// doc lists its states as counters.
func checkDocumented(t *testing.T, st map[string]float64, words map[string]bool, patterns []*regexp.Regexp) {
	t.Helper()
	missing := map[string]string{} // counter -> one key reporting it
	for k := range st {
		leaf := statLeaf(k)
		if words[leaf] || matchesAny(patterns, leaf) {
			continue
		}
		if _, ok := missing[leaf]; !ok || k < missing[leaf] {
			missing[leaf] = k
		}
	}
	var out []string
	for leaf, k := range missing {
		out = append(out, leaf+" ("+k+")")
	}
	sort.Strings(out)
	for _, m := range out {
		t.Errorf("statistic %s is in no doc.go or README", m)
	}
}

// statLeaf returns the counter name of statistic key k: its last dotted
// element, without a bracketed suffix (a DRAM channel's client_bytes[<port>],
// whose port name holds dots of its own).
func statLeaf(k string) string {
	if i := strings.IndexByte(k, '['); i >= 0 && strings.HasSuffix(k, "]") {
		if j := strings.LastIndexByte(k[:i], '.'); j >= 0 && !strings.Contains(k[j:i], "]") {
			k = k[:i]
		}
	}
	return k[strings.LastIndexByte(k, '.')+1:]
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// statDocCorpus returns the words of the documentation files and, for every
// snake-case word written with placeholders (commands_<opcode>,
// primitives_sent_r<i>), a pattern in which each placeholder stands for a
// number (<i>) or a name (<opcode>).
func statDocCorpus(t *testing.T) (map[string]bool, []*regexp.Regexp) {
	t.Helper()
	files := append([]string(nil), statDocFiles...)
	for _, d := range statDocDirs {
		err := filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && e.Name() == "doc.go" {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	word := regexp.MustCompile(`[A-Za-z0-9_]+`)
	placeholder := regexp.MustCompile(`[a-z0-9_]*(?:<[a-z]+>[a-z0-9_]*)+`)
	number := regexp.MustCompile(`<[a-z]>`)
	name := regexp.MustCompile(`<[a-z]{2,}>`)
	words := map[string]bool{}
	seen := map[string]bool{}
	var patterns []*regexp.Regexp
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range word.FindAllString(string(b), -1) {
			words[w] = true
		}
		for _, p := range placeholder.FindAllString(string(b), -1) {
			if seen[p] || !strings.Contains(p, "_") || p == "cycles_<state>" {
				continue
			}
			seen[p] = true
			re := number.ReplaceAllString(regexp.QuoteMeta(p), `[0-9]+`)
			re = name.ReplaceAllString(re, `[a-z0-9_]+`)
			patterns = append(patterns, regexp.MustCompile(`^`+re+`$`))
		}
	}
	return words, patterns
}
