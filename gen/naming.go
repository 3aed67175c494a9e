package gen

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jinzhu/inflection"
)

// goTypeName is the name sqlc gives the model struct of a table (its default
// options: singular table names, the "id" initialism, schema prefix outside
// the default schema). Fenced method names use it: UpdateDoc, UpsertAppSetting.
func goTypeName(t *Table) string {
	name := t.Name
	if t.Schema != "" {
		name = t.Schema + "_" + name
	}
	return structName(singular(name))
}

// singular mirrors sqlc's internal/inflection.Singular, which patches a few
// words jinzhu/inflection gets wrong.
func singular(name string) string {
	switch strings.ToLower(name) {
	case "campus", "meta", "metadata":
		return name
	case "calories":
		return "calorie"
	case "waves":
		return "wave"
	}
	return inflection.Singular(name)
}

// structName mirrors sqlc's codegen/golang.StructName with the default
// initialisms.
func structName(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, name)
	var out strings.Builder
	for _, p := range strings.Split(name, "_") {
		if p == "id" {
			out.WriteString("ID")
			continue
		}
		r, size := utf8.DecodeRuneInString(p)
		if size > 0 {
			out.WriteRune(unicode.ToTitle(r))
			out.WriteString(p[size:])
		}
	}
	s := out.String()
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsDigit(r) {
		return "_" + s
	}
	return s
}
