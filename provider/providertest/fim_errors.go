package providertest

import (
	"encoding/json"
	"net/http"
)

// fimBadBody is the refusal of a body that is not a JSON object.
func fimBadBody(dialect string) *rejection {
	if dialect == FIMMistral {
		return &rejection{status: http.StatusUnprocessableEntity, message: "body: expected a JSON object",
			body: mistralDetail("model_attributes_type", "", "Input should be a valid dictionary or object to extract fields from", nil)}
	}
	return badRequest("Failed to deserialize the JSON body into the target type: expected a JSON object")
}

// fimErrorBody is the JSON error body the dialect's server answers with.
func fimErrorBody(dialect string, status int, message string) []byte {
	switch dialect {
	case FIMLlamaCpp:
		return marshal(llamaError{Error: llamaErrorDetail{Code: status, Message: message, Type: llamaErrorType(status)}})
	case FIMOllama:
		return marshal(struct {
			Error string `json:"error"`
		}{message})
	case FIMMistral:
		return marshal(mistralError{Object: "error", Message: jsonString(message), Type: chatErrorType(status)})
	}
	return errorBody(dialectOpenAI, status, message)
}

type llamaError struct {
	Error llamaErrorDetail `json:"error"`
}

type llamaErrorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Type    string `json:"type"`
}

// llamaErrorType is llama.cpp's error type for a status.
func llamaErrorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusNotImplemented:
		return "not_supported_error"
	case http.StatusServiceUnavailable:
		return "unavailable_error"
	}
	return "server_error"
}

type mistralError struct {
	Object  string          `json:"object"`
	Message json.RawMessage `json:"message"`
	Type    string          `json:"type"`
	Param   *string         `json:"param"`
	Code    *string         `json:"code"`
}

type mistralDetailItem struct {
	Type  string          `json:"type"`
	Loc   []string        `json:"loc"`
	Msg   string          `json:"msg"`
	Input json.RawMessage `json:"input,omitempty"`
}

// mistralDetail is Mistral's 422: a pydantic validation detail list.
func mistralDetail(kind, field, msg string, input json.RawMessage) []byte {
	loc := []string{"body"}
	if field != "" {
		loc = append(loc, field)
	}
	detail := marshal(struct {
		Detail []mistralDetailItem `json:"detail"`
	}{[]mistralDetailItem{{Type: kind, Loc: loc, Msg: msg, Input: input}}})
	return marshal(mistralError{Object: "error", Message: detail, Type: "invalid_request_message_error"})
}

// fimErrorFrame is the in-stream error the dialect sends when generation
// fails after the stream started.
func fimErrorFrame(dialect string) []byte {
	const msg = "The server had an error while processing your request. Sorry about that!"
	switch dialect {
	case FIMLlamaCpp:
		return chatFrame(marshal(llamaError{Error: llamaErrorDetail{Code: 500, Message: msg, Type: "server_error"}}))
	case FIMOllama:
		return append(fimErrorBody(dialect, 500, msg), '\n')
	}
	return chatErrorFrame()
}

// fimGarbageFrame is a frame that is not JSON, framed like the dialect's.
func fimGarbageFrame(dialect string) []byte {
	if dialect == FIMOllama {
		return []byte("{\"model\":<<garbage, not JSON>>\n")
	}
	return []byte("data: {\"id\":<<garbage, not JSON>>\n\n")
}
