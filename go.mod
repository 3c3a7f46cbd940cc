module github.com/gfxsim/gfxsim

go 1.26

require (
	github.com/mattn/go-sqlite3 v1.14.16
	github.com/qmuntal/gltf v0.28.0
	github.com/sarchlab/akita/v3 v3.1.0
	github.com/tebeka/selenium v0.9.9
	gonum.org/v1/plot v0.15.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	git.sr.ht/~sbinet/gg v0.6.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/blang/semver v3.5.1+incompatible // indirect
	github.com/campoy/embedmd v1.0.0 // indirect
	github.com/go-fonts/liberation v0.3.3 // indirect
	github.com/go-latex/latex v0.0.0-20240709081214-31cef3c7570e // indirect
	github.com/go-pdf/fpdf v0.9.0 // indirect
	github.com/go-sql-driver/mysql v1.7.1 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rs/xid v1.6.0 // indirect
	github.com/stretchr/testify v1.9.0 // indirect
	github.com/tebeka/atexit v0.3.0 // indirect
	golang.org/x/image v0.21.0 // indirect
	golang.org/x/sys v0.27.0 // indirect
	golang.org/x/text v0.19.0 // indirect
)
