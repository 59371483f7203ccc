package providertest

import (
	"encoding/json"
)

// The fields each FIM endpoint knows, with their rules. Every other field
// is refused: OpenAI and Mistral do so for real; DeepSeek, llama.cpp and
// Ollama would mostly ignore it, and the fake refuses it anyway so that a
// field meant for another dialect never slips through unnoticed.

// completionsRules are the fields DeepSeek, OpenAI and Mistral share.
func completionsRules(maxTokens int64) map[string]fieldRule {
	return map[string]fieldRule{
		"model": nonEmptyString, "prompt": isString, "suffix": nullString,
		"max_tokens": integer(1, maxTokens), "stream": isBool,
		"temperature": numberIn(0, 2), "top_p": numberIn(0, 1),
	}
}

func deepSeekRules() map[string]fieldRule {
	r := completionsRules(4096) // "the max tokens of FIM completion is 4K"
	bounded := r["max_tokens"]
	r["max_tokens"] = func(c fimCheck, field string) *rejection {
		if rej := bounded(c, field); rej != nil {
			return badRequest("Invalid max_tokens value, the valid range of max_tokens is [1, 4096]")
		}
		return nil
	}
	r["stop"] = stopRule(16, false)
	r["stream_options"] = streamOptionsRule
	r["echo"], r["logprobs"] = isBool, integer(0, 20)
	r["frequency_penalty"], r["presence_penalty"] = numberIn(-2, 2), numberIn(-2, 2)
	return r
}

func openAIRules() map[string]fieldRule {
	r := completionsRules(0)
	r["stop"] = stopRule(4, false)
	r["stream_options"] = streamOptionsRule
	r["echo"], r["logprobs"], r["n"], r["best_of"] = isBool, integer(0, 5), integer(1, 128), integer(1, 20)
	r["frequency_penalty"], r["presence_penalty"] = numberIn(-2, 2), numberIn(-2, 2)
	r["logit_bias"], r["user"], r["seed"] = isObject, isString, integer(-1<<62, 1<<62)
	return r
}

func mistralRules() map[string]fieldRule {
	r := completionsRules(0)
	r["stop"] = stopRule(0, false)
	r["min_tokens"], r["random_seed"] = integer(0, 0), integer(0, 0)
	return r
}

func llamaCppRules() map[string]fieldRule {
	return map[string]fieldRule{
		"model": isString, "input_prefix": isString, "input_suffix": isString,
		"input_extra": inputExtraRule, "prompt": isString, "n_predict": integer(-1, 0),
		"stream": isBool, "stop": stopRule(0, true), "temperature": numberIn(0, 100),
		"top_k": integer(0, 0), "top_p": numberIn(0, 1), "min_p": numberIn(0, 1),
		"cache_prompt": isBool, "n_indent": integer(0, 0), "t_max_prompt_ms": integer(0, 0),
		"t_max_predict_ms": integer(0, 0), "seed": integer(-1, 0), "id_slot": integer(-1, 0),
		"samplers": isArray,
	}
}

func ollamaRules() map[string]fieldRule {
	return map[string]fieldRule{
		"model": nonEmptyString, "prompt": isString, "suffix": isString, "stream": isBool,
		"raw": isBool, "options": ollamaOptionsRule, "system": isString, "template": isString,
		"context": isArray, "format": nil, "images": isArray, "keep_alive": nil, "think": nil,
	}
}

// ollamaOptions are the runner options the fake knows; Ollama ignores
// others with a warning, the fake refuses them.
var ollamaOptions = map[string]fieldRule{
	"num_predict": integer(-2, 0), "stop": stopRule(0, true), "temperature": numberIn(0, 100),
	"top_k": integer(0, 0), "top_p": numberIn(0, 1), "min_p": numberIn(0, 1), "seed": integer(-1<<62, 1<<62),
	"num_ctx": integer(1, 0), "repeat_penalty": isNumber, "repeat_last_n": integer(-1, 0),
	"presence_penalty": isNumber, "frequency_penalty": isNumber, "num_keep": integer(-1, 0),
	"typical_p": numberIn(0, 1),
}

func ollamaOptionsRule(c fimCheck, field string) *rejection {
	opts, ok := decodeObject(c.o[field])
	if !ok {
		return c.refuse(field, "dict_type", "expected an object")
	}
	return fimCheck{dialect: c.dialect, o: opts}.allow(ollamaOptions)
}

func streamOptionsRule(c fimCheck, field string) *rejection {
	if c.o.kind(field) == kindNull {
		return nil
	}
	so, ok := decodeObject(c.o[field])
	if !ok {
		return c.refuse(field, "dict_type", "expected an object")
	}
	if !c.o.isTrue("stream") {
		return c.refuse(field, "invalid", "stream_options is only allowed when stream is true")
	}
	return fimCheck{dialect: c.dialect, o: so}.allow(map[string]fieldRule{"include_usage": isBool})
}

// inputExtraRule is llama.cpp's check of the extra context chunks.
func inputExtraRule(c fimCheck, field string) *rejection {
	chunks, ok := decodeArray(c.o[field])
	if !ok {
		return c.refuse(field, "list_type", "expected an array of {\"filename\",\"text\"} objects")
	}
	for _, raw := range chunks {
		chunk, ok := decodeObject(raw)
		if !ok {
			return badRequest("extra_context chunk must be an object")
		}
		if chunk.kind("text") != kindString {
			return badRequest("extra_context chunk must contain a \"text\" field with a string value")
		}
		if k := chunk.kind("filename"); k != kindAbsent && k != kindString {
			return badRequest("extra_context chunk's \"filename\" field must be a string")
		}
		for key := range chunk {
			if key != "text" && key != "filename" {
				return badRequest("extra_context chunk: unknown field %q", key)
			}
		}
	}
	return nil
}

// validateFIM checks a FIM request body and reads it into a FIMRequest.
func validateFIM(dialect string, body []byte) (*FIMRequest, *rejection) {
	o, ok := decodeObject(body)
	if !ok {
		return nil, fimBadBody(dialect)
	}
	c := fimCheck{dialect: dialect, o: o}
	var rules map[string]fieldRule
	var required []string
	switch dialect {
	case FIMDeepSeek:
		rules, required = deepSeekRules(), []string{"model", "prompt"}
	case FIMOpenAI:
		rules, required = openAIRules(), []string{"model", "prompt"}
	case FIMMistral:
		rules, required = mistralRules(), []string{"model", "prompt"}
	case FIMLlamaCpp:
		// llama.cpp defaults both to "": the fake wants them, since a
		// client that leaves one out has lost the cursor's context.
		rules, required = llamaCppRules(), []string{"input_prefix", "input_suffix"}
	case FIMOllama:
		rules, required = ollamaRules(), []string{"model", "prompt"}
	}
	for _, f := range required {
		if rej := c.required(f, "see the "+dialect+" request shape"); rej != nil {
			return nil, rej
		}
	}
	if rej := c.allow(rules); rej != nil {
		return nil, rej
	}
	if rej := c.mustStream(dialect == FIMOllama); rej != nil { // Ollama streams by default
		return nil, rej
	}
	if rej := c.presence(); rej != nil {
		return nil, rej
	}
	return readFIM(dialect, o), nil
}

// presence holds the rules that tie fields together.
func (c fimCheck) presence() *rejection {
	suffix, _ := c.o.str("suffix")
	switch c.dialect {
	case FIMDeepSeek, FIMOpenAI:
		if c.o.isTrue("echo") && suffix != "" {
			return c.refuse("echo", "invalid", "echo is not supported with suffix")
		}
	case FIMOllama:
		if c.o.isTrue("raw") && suffix != "" {
			// Raw mode skips the template, which is what places the suffix.
			return badRequest("raw mode does not support suffix")
		}
		if prompt, _ := c.o.str("prompt"); prompt == "" && suffix == "" {
			return badRequest("prompt: empty prompt and suffix only load the model; the fake scripts completions")
		}
	}
	return nil
}

// readFIM reads a valid body into the dialect-neutral record.
func readFIM(dialect string, o object) *FIMRequest {
	r := newFIMRequest(dialect)
	r.Model, _ = o.str("model")
	opts := o
	switch dialect {
	case FIMLlamaCpp:
		r.Prefix, _ = o.str("input_prefix")
		r.Suffix, _ = o.str("input_suffix")
		r.MaxTokens = intOf(o["n_predict"])
		var extra []FIMFile
		if json.Unmarshal(o["input_extra"], &extra) == nil {
			r.Extra = extra
		}
	case FIMOllama:
		r.Prefix, _ = o.str("prompt")
		r.Suffix, _ = o.str("suffix")
		opts, _ = decodeObject(o["options"])
		r.MaxTokens = intOf(opts["num_predict"])
	default:
		r.Prefix, _ = o.str("prompt")
		r.Suffix, _ = o.str("suffix")
		r.MaxTokens = intOf(o["max_tokens"])
	}
	r.Stop, _ = stringList(opts["stop"])
	var t float64
	if opts.kind("temperature") == kindNumber && json.Unmarshal(opts["temperature"], &t) == nil {
		r.Temperature = &t
	}
	return r
}

func intOf(raw json.RawMessage) int {
	var n int
	if kindOf(raw) != kindNumber || json.Unmarshal(raw, &n) != nil {
		return 0
	}
	return n
}
