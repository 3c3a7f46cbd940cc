package multipass

import (
	"fmt"
	"slices"
)

// Graph is an operation DAG. Node i's Kids are the nodes whose results it
// reads (its operands' producers), distinct and ascending. Nodes are numbered
// in a topological order (every kid has a smaller number than its parent), the
// root (the shader's output) is the last node, and every node is reachable
// from the root. NoSave marks nodes that may never be marked as the root of a
// pass (their values are never saved and restored); it may be nil.
type Graph struct {
	Kids    [][]int
	Parents [][]int // distinct, ascending
	NoSave  []bool

	post  []int // post[i]: position of node i in the postorder
	order []int // the nodes in postorder
}

// NewGraph checks kids and builds the graph: parents, and the postorder of a
// depth-first traversal from the root that visits kids in ascending order.
func NewGraph(kids [][]int, noSave []bool) (*Graph, error) {
	n := len(kids)
	if n == 0 {
		return nil, fmt.Errorf("multipass: empty graph")
	}
	if noSave != nil && len(noSave) != n {
		return nil, fmt.Errorf("multipass: NoSave has %d entries for %d nodes", len(noSave), n)
	}
	g := &Graph{Kids: make([][]int, n), Parents: make([][]int, n), NoSave: noSave}
	for i, ks := range kids {
		k := slices.Clone(ks)
		slices.Sort(k)
		k = slices.Compact(k)
		for _, c := range k {
			if c < 0 || c >= i {
				return nil, fmt.Errorf("multipass: node %d: kid %d is not an earlier node", i, c)
			}
			g.Parents[c] = append(g.Parents[c], i)
		}
		g.Kids[i] = k
	}
	g.post = make([]int, n)
	for i := range g.post {
		g.post[i] = -1
	}
	// Iterative DFS from the root.
	type frame struct{ node, next int }
	stack := []frame{{node: n - 1}}
	g.post[n-1] = -2
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(g.Kids[top.node]) {
			c := g.Kids[top.node][top.next]
			top.next++
			if g.post[c] == -1 {
				g.post[c] = -2
				stack = append(stack, frame{node: c})
			}
			continue
		}
		g.post[top.node] = len(g.order)
		g.order = append(g.order, top.node)
		stack = stack[:len(stack)-1]
	}
	if len(g.order) != n {
		for i, p := range g.post {
			if p < 0 {
				return nil, fmt.Errorf("multipass: node %d is not reachable from the root %d", i, n-1)
			}
		}
	}
	return g, nil
}

// N returns the number of nodes.
func (g *Graph) N() int { return len(g.Kids) }

// Root returns the root node (the last one).
func (g *Graph) Root() int { return len(g.Kids) - 1 }

// Postorder returns the nodes in postorder (kids before parents; the root
// last). The slice is shared: do not modify it.
func (g *Graph) Postorder() []int { return g.order }

// PostIndex returns the position of node i in the postorder.
func (g *Graph) PostIndex(i int) int { return g.post[i] }

// MR reports whether node i is multiply referenced (read by two or more
// distinct nodes).
func (g *Graph) MR(i int) bool { return len(g.Parents[i]) >= 2 }

// CanSave reports whether node i may be marked.
func (g *Graph) CanSave(i int) bool { return g.NoSave == nil || !g.NoSave[i] }

// MRNodes returns the multiply-referenced nodes in postorder.
func (g *Graph) MRNodes() []int {
	var out []int
	for _, i := range g.order {
		if g.MR(i) {
			out = append(out, i)
		}
	}
	return out
}

// Dominators returns the immediate dominator of every node (-1 for the root):
// the node closest to i through which every path from the root to i passes.
// It is the algorithm of Cooper, Harvey and Kennedy ("A simple, fast dominance
// algorithm"); on a DAG one sweep in reverse postorder suffices because every
// parent comes before its kids.
func (g *Graph) Dominators() []int {
	n := g.N()
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	root := g.Root()
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for g.post[a] < g.post[b] {
				a = idom[a]
			}
			for g.post[b] < g.post[a] {
				b = idom[b]
			}
		}
		return a
	}
	for k := n - 2; k >= 0; k-- {
		v := g.order[k]
		d := -1
		for _, p := range g.Parents[v] {
			if d < 0 {
				d = p
			} else {
				d = intersect(p, d)
			}
		}
		idom[v] = d
	}
	idom[root] = -1
	return idom
}

// Tree is a rooted tree over a subset of the graph's nodes: Parent[i] is -1
// for the root and for nodes not in the tree (In[i] false); Children are in
// postorder of the graph.
type Tree struct {
	Root     int
	Parent   []int
	Children [][]int
	In       []bool
}

func newTree(g *Graph, parent []int, in []bool) *Tree {
	t := &Tree{Root: g.Root(), Parent: parent, Children: make([][]int, g.N()), In: in}
	for _, v := range g.order { // postorder: children come out sorted by it
		if in[v] && parent[v] >= 0 {
			t.Children[parent[v]] = append(t.Children[parent[v]], v)
		}
	}
	return t
}

// DominatorTree returns the dominator tree: the parent of each node is its
// immediate dominator.
func (g *Graph) DominatorTree() *Tree {
	in := make([]bool, g.N())
	for i := range in {
		in[i] = true
	}
	return newTree(g, g.Dominators(), in)
}

// PartialDominatorTree returns the document's partial dominator tree (PDT):
// the dominator tree with every node discarded except the multiply-referenced
// nodes, their immediate dominators and the root. A kept node's parent is its
// nearest kept proper dominator.
func (g *Graph) PartialDominatorTree() *Tree {
	n := g.N()
	idom := g.Dominators()
	in := make([]bool, n)
	in[g.Root()] = true
	for i := 0; i < n; i++ {
		if g.MR(i) {
			in[i] = true
			in[idom[i]] = true
		}
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
		if !in[i] || i == g.Root() {
			continue
		}
		d := idom[i]
		for !in[d] {
			d = idom[d]
		}
		parent[i] = d
	}
	return newTree(g, parent, in)
}
