// Package sqlescape formats SQL client side, as TiDB's sqlescape does: %n is
// an identifier, %? a value written out as a literal.
package sqlescape

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// escapeSQL copies the text of sql, replacing each verb by its argument.
func escapeSQL(sql string, args ...any) ([]byte, error) {
	buf := make([]byte, 0, len(sql))
	next := 0
	for i := 0; i < len(sql); i++ {
		q := strings.IndexByte(sql[i:], '%')
		if q == -1 {
			buf = append(buf, sql[i:]...)
			break
		}
		buf = append(buf, sql[i:i+q]...)
		i += q
		if i+1 >= len(sql) || next >= len(args) {
			return nil, errors.New("sqlescape: missing argument")
		}
		switch v := args[next].(type) {
		case string:
			if sql[i+1] == 'n' {
				buf = append(buf, '`')
				buf = append(buf, v...)
				buf = append(buf, '`')
			} else {
				buf = strconv.AppendQuote(buf, v)
			}
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case int64:
			buf = strconv.AppendInt(buf, v, 10)
		}
		next++
		i++
	}
	return buf, nil
}

// EscapeSQL formats sql with args.
func EscapeSQL(sql string, args ...any) (string, error) {
	buf, err := escapeSQL(sql, args...)
	if err != nil {
		return "", err
	}
	return string(buf), nil
}

// MustEscapeSQL formats sql with args and panics on a bad format.
func MustEscapeSQL(sql string, args ...any) string {
	s, err := EscapeSQL(sql, args...)
	if err != nil {
		panic(err)
	}
	return s
}

// Sprintf is fmt.Sprintf under another name.
func Sprintf(format string, args ...any) string {
	return fmt.Sprintf(format, args...)
}

// Shaped like a formatter but not one: the text a caller passes is not
// what it returns.

var messages = map[string]string{}

// Translate returns the message registered under key.
func Translate(key string, args ...any) string {
	return messages[key]
}

// Verbs says how many verbs format has: it looks for '%' but copies
// nothing of format.
func Verbs(format string, args ...any) string {
	return strconv.Itoa(strings.Count(format, "%"))
}

// Comment formats a comment and puts it before nothing: the format it
// passes on is not the one it is given.
func Comment(format string, args ...any) string {
	return fmt.Sprintf("/* "+format+" */", args...)
}
