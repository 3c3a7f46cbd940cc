// Package hostile holds the tests of gfxsim against hostile and oversized
// inputs (issue 19): each test builds a small file of one class in a
// temporary folder (a few bytes to a few KB: nothing is stored in the
// repository), loads or renders it under a memory limit the test sets, and
// checks that it ends within seconds with a clear error naming the file and
// the field, or renders within the budget. The package has no code of its
// own; the rules live in package internal/inputs and the loaders.
package hostile
