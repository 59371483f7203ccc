package providertest

import (
	"fmt"
	"net/http"
)

const (
	dialectOpenAI    = "openai"
	dialectAnthropic = "anthropic"
)

// rejection is a refusal: an HTTP status and the message the service would
// put in its error body.
type rejection struct {
	status  int
	message string
	body    []byte // the whole error body when set (context_limit.go), else errorBody's
}

func badRequest(format string, args ...any) *rejection {
	return &rejection{status: http.StatusBadRequest, message: fmt.Sprintf(format, args...)}
}

func unauthorized(message string) *rejection {
	return &rejection{status: http.StatusUnauthorized, message: message}
}

// errorBody is the JSON error body the dialect's service answers with status.
func errorBody(dialect string, status int, message string) []byte {
	if dialect == dialectAnthropic {
		return marshal(messagesError{
			Type:  "error",
			Error: messagesErrorDetail{Type: messagesErrorType(status), Message: message},
		})
	}
	typ := chatErrorType(status)
	return marshal(chatError{Error: chatErrorDetail{Message: message, Type: typ, Code: typ}})
}

type messagesError struct {
	Type  string              `json:"type"`
	Error messagesErrorDetail `json:"error"`
}

type messagesErrorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// messagesErrorType maps a status to the Messages API's error type.
func messagesErrorType(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	default:
		return "api_error"
	}
}

type chatError struct {
	Error chatErrorDetail `json:"error"`
}

type chatErrorDetail struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    string  `json:"code"`
}

// chatErrorType maps a status to the Chat Completions error type.
func chatErrorType(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusPaymentRequired:
		return "insufficient_balance"
	case http.StatusNotFound:
		return "not_found"
	case http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case http.StatusServiceUnavailable:
		return "server_overloaded"
	default:
		return "server_error"
	}
}
