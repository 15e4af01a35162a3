package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// InputError lists every problem with the input a model sent for a tool, one
// line each, so the model can fix them all in one retry.
type InputError struct {
	Tool     string
	Problems []string
}

func (e *InputError) Error() string { return "InputValidationError: " + e.Issues() }

// Issues says what is wrong without the error's name, as Claude Code words
// it where the input was not the model's (a hook's updatedInput).
func (e *InputError) Issues() string {
	return fmt.Sprintf("%s failed due to the following issue%s:\n%s", e.Tool, plural(len(e.Problems)), strings.Join(e.Problems, "\n"))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// decode checks raw against the input's shape, coerces the lenient forms models
// send ("true" for true, "30" for 30) and unmarshals the result into In.
func decode[In any](toolName string, sh *objectShape, raw json.RawMessage) (In, error) {
	var in In
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var value any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&value); err != nil {
		return in, &InputError{Tool: toolName, Problems: []string{"The input is not valid JSON: " + err.Error() + ". Send the input as one JSON object."}}
	}
	var problems []string
	value = check("", value, sh, &problems)
	if len(problems) > 0 {
		return in, &InputError{Tool: toolName, Problems: problems}
	}
	clean, err := json.Marshal(value)
	if err == nil {
		err = json.Unmarshal(clean, &in)
	}
	if err != nil {
		return in, &InputError{Tool: toolName, Problems: []string{err.Error()}}
	}
	return in, nil
}

// check validates value against sh, appending one line per problem, and returns
// the value with lenient forms coerced.
func check(path string, value any, sh *shape, problems *[]string) any {
	if sh == nil {
		return value
	}
	switch sh.Type {
	case "object":
		return checkObject(path, value, sh, problems)
	case "array":
		items, ok := value.([]any)
		if !ok {
			*problems = append(*problems, typeProblem(path, sh.Type, value))
			return value
		}
		for i, item := range items {
			items[i] = check(fmt.Sprintf("%s[%d]", path, i), item, sh.Items, problems)
		}
		return items
	case "boolean":
		return checkBool(path, value, problems)
	case "integer", "number":
		return checkNumber(path, value, sh, problems)
	case "string":
		if _, ok := value.(string); !ok {
			*problems = append(*problems, typeProblem(path, sh.Type, value))
			return value
		}
	}
	checkEnum(path, value, sh, problems)
	return value
}

func checkObject(path string, value any, sh *shape, problems *[]string) any {
	obj, ok := value.(map[string]any)
	if !ok {
		if path == "" {
			*problems = append(*problems, fmt.Sprintf("The input must be a JSON object, but it is %s", jsonKind(value)))
		} else {
			*problems = append(*problems, typeProblem(path, "object", value))
		}
		return value
	}
	for _, p := range sh.Properties {
		v, present := obj[p.Name]
		if !present || v == nil {
			delete(obj, p.Name)
			if sh.Required[p.Name] {
				*problems = append(*problems, fmt.Sprintf("The required parameter `%s` is missing", join(path, p.Name)))
			}
			continue
		}
		obj[p.Name] = check(join(path, p.Name), v, p.Shape, problems)
	}
	if sh.Closed {
		var unknown []string
		for name := range obj {
			if !slices.ContainsFunc(sh.Properties, func(p property) bool { return p.Name == name }) {
				unknown = append(unknown, name)
			}
		}
		slices.Sort(unknown)
		for _, name := range unknown {
			*problems = append(*problems, fmt.Sprintf("An unexpected parameter `%s` was provided", join(path, name)))
		}
	}
	return obj
}

func checkBool(path string, value any, problems *[]string) any {
	switch v := value.(type) {
	case bool:
		return v
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return true
		case "false":
			return false
		}
	}
	*problems = append(*problems, typeProblem(path, "boolean", value))
	return value
}

func checkNumber(path string, value any, sh *shape, problems *[]string) any {
	var n float64
	switch v := value.(type) {
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			*problems = append(*problems, typeProblem(path, sh.Type, value))
			return value
		}
		n = f
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			*problems = append(*problems, typeProblem(path, sh.Type, value))
			return value
		}
		n = f
	default:
		*problems = append(*problems, typeProblem(path, sh.Type, value))
		return value
	}
	if sh.Type == "integer" && n != math.Trunc(n) {
		*problems = append(*problems, fmt.Sprintf("The parameter `%s` must be a whole number, but it is %v", path, n))
		return value
	}
	if sh.Minimum != nil && n < *sh.Minimum {
		*problems = append(*problems, fmt.Sprintf("The parameter `%s` must be at least %v, but it is %v", path, *sh.Minimum, n))
	}
	if sh.Maximum != nil && n > *sh.Maximum {
		*problems = append(*problems, fmt.Sprintf("The parameter `%s` must be at most %v, but it is %v", path, *sh.Maximum, n))
	}
	return json.Number(strconv.FormatFloat(n, 'f', -1, 64))
}

func checkEnum(path string, value any, sh *shape, problems *[]string) {
	if len(sh.Enum) == 0 {
		return
	}
	for _, allowed := range sh.Enum {
		if fmt.Sprint(allowed) == fmt.Sprint(value) {
			return
		}
	}
	options := make([]string, len(sh.Enum))
	for i, allowed := range sh.Enum {
		options[i] = fmt.Sprintf("%q", fmt.Sprint(allowed))
	}
	*problems = append(*problems, fmt.Sprintf("The parameter `%s` must be one of %s, but it is %q",
		path, strings.Join(options, ", "), fmt.Sprint(value)))
}

func typeProblem(path, want string, value any) string {
	return fmt.Sprintf("The parameter `%s` type is expected as `%s` but provided as `%s`", path, want, jsonKind(value))
}

func jsonKind(value any) string {
	switch value.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", value)
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
