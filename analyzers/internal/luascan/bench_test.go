package luascan_test

import (
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/luascan"
)

func BenchmarkParse(b *testing.B) {
	scripts := map[string]string{
		"redislock-release": redislockRelease,
		"redsync-touch-nx":  redsyncTouchWithSetNX,
		"fence":             fenceScript,
		"long":              strings.Repeat("do "+fenceScript+" end\n-- comment [[x]]\n", 50),
	}
	for name, src := range scripts {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				luascan.Parse(src)
			}
		})
	}
}
