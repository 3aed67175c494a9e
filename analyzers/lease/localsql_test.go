package lease

import (
	"go/types"
	"testing"
)

// TestLocalSQLOnly reads programs' import graphs: SQLite's drivers alone,
// directly or through a dependency, make the program's SQL node-local; a
// shared database's driver anywhere in the graph, or no driver, does not.
func TestLocalSQLOnly(t *testing.T) {
	pkg := func(path string, imports ...*types.Package) *types.Package {
		p := types.NewPackage(path, "p")
		p.SetImports(imports)
		return p
	}
	sqlite := pkg("github.com/mattn/go-sqlite3")
	modernc := pkg("modernc.org/sqlite/lib")
	gormSQLite := pkg("gorm.io/driver/sqlite", sqlite)
	pgxpool := pkg("github.com/jackc/pgx/v5/pgxpool")
	mysql := pkg("github.com/go-sql-driver/mysql")
	libsql := pkg("github.com/tursodatabase/libsql-client-go/libsql")
	gorm := pkg("gorm.io/gorm")
	for _, tc := range []struct {
		name  string
		roots []*types.Package
		want  bool
	}{
		{"mattn directly", []*types.Package{pkg("app/store", sqlite)}, true},
		{"through GORM's driver", []*types.Package{pkg("app/cmd", pkg("app/db", gormSQLite, gorm))}, true},
		{"a package below the driver's root", []*types.Package{pkg("app/store", modernc)}, true},
		{"pgx beside it, another package", []*types.Package{pkg("app/store", sqlite), pkg("app/cmd", pgxpool)}, false},
		{"MySQL under the SQLite store", []*types.Package{pkg("app/store", gormSQLite, pkg("app/legacy", mysql))}, false},
		{"a remote SQLite", []*types.Package{pkg("app/store", sqlite, libsql)}, false},
		{"no driver", []*types.Package{pkg("app/store", gorm)}, false},
		{"a name that only starts like a driver", []*types.Package{pkg("app/store", pkg("github.com/mattn/go-sqlite3x"))}, false},
	} {
		if got := localSQLOnly(tc.roots); got != tc.want {
			t.Errorf("%s: localSQLOnly = %v, want %v", tc.name, got, tc.want)
		}
	}
}
