package lease

import (
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A DynamoDB PutItem, UpdateItem or DeleteItem is applied only when its
// ConditionExpression holds, and a stale holder fails with
// ConditionalCheckFailedException when it is one of:
//
//   - a token compare, #fence < :token (the lease's token, kept in the item);
//   - a compare-and-set, version = :read (optimistic locking), or a keyed
//     state transition, #status = :pending;
//   - a create-if-absent, attribute_not_exists(pk).
//
// So a condition with a comparison (=, <, <=, >, >=) or attribute_not_exists
// fences the write. One that only asks that the item exists
// (attribute_exists(pk)), or that an attribute is not some value (<>),
// pins nothing a later holder changed. The legacy Expected map is a
// condition too. An expression fencelint cannot read (the expression
// package's builder, a string from elsewhere) leaves the write unjudged.
// BatchWriteItem takes no condition at all.

// dynamoComparison matches a comparison operator of a condition
// expression, once <> is removed.
var dynamoComparison = regexp.MustCompile(`<=?|>=?|=`)

// dynamoFenced reports whether a DynamoDB write input built here carries
// a condition that fences the write; known is false when the input or its
// condition was built elsewhere.
func dynamoFenced(input ssa.Value) (fenced, known bool) {
	alloc, ok := unwrap(input).(*ssa.Alloc)
	if !ok {
		return false, false
	}
	fields := storedFields(alloc)
	if _, ok := fields["Expected"]; ok {
		return true, true // the legacy conditions: one per attribute, each a compare
	}
	cond, ok := fields["ConditionExpression"]
	if !ok {
		return false, true
	}
	text, ok := awsString(cond)
	if !ok {
		return false, false
	}
	return conditionFences(text), true
}

// conditionFences reports whether a condition expression's text compares
// an attribute or asks that the item be absent.
func conditionFences(cond string) bool {
	cond = strings.ReplaceAll(cond, "<>", " ")
	return strings.Contains(strings.ToLower(cond), "attribute_not_exists") || dynamoComparison.MatchString(cond)
}

// awsString returns the constant text of a *string built by aws.String (or
// &s of a constant).
func awsString(v ssa.Value) (string, bool) {
	if call, ok := unwrap(v).(*ssa.Call); ok {
		if f := calleeFunc(call.Common()); f != nil && f.Name() == "String" && len(call.Call.Args) == 1 {
			return constString(call.Call.Args[0])
		}
		return "", false
	}
	if alloc, ok := unwrap(v).(*ssa.Alloc); ok {
		if st := onlyStoreInto(alloc); st != nil {
			return constString(st.Val)
		}
	}
	return "", false
}
