// Package provider owns the vendor-neutral vocabulary between the agent and a
// model API: messages, tool specs, requests, the streamed event vocabulary,
// usage with one meaning in every dialect, and the HTTP streaming machinery
// (retries, idle timeout, SSE framing, recording) that every dialect shares.
//
// A dialect (provider/openai, provider/anthropic) only translates: it encodes a
// Request into its wire body and decodes its SSE frames into Events. Everything
// else about talking to a server lives here, once.
package provider
