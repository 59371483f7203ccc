package provider

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"absent", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{"fraction", map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond, true},
		{"capped", map[string]string{"Retry-After": "3600"}, time.Minute, true},
		{"http date", map[string]string{"Retry-After": now.Add(10 * time.Second).Format(http.TimeFormat)}, 10 * time.Second, true},
		{"date in the past", map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0, true},
		{"milliseconds header wins", map[string]string{"Retry-After": "9", "Retry-After-Ms": "250"}, 250 * time.Millisecond, true},
		{"negative ignored", map[string]string{"Retry-After": "-1"}, 0, false},
		{"NaN ignored", map[string]string{"Retry-After": "NaN"}, 0, false},
		{"garbage ignored", map[string]string{"Retry-After": "soon"}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := retryAfter(h, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("retryAfter = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBackoffStaysInItsBand(t *testing.T) {
	for attempt := 1; attempt <= 40; attempt++ {
		top := min(time.Second<<min(attempt-1, 30), 30*time.Second)
		for range 50 {
			d := backoff(attempt, time.Second, 30*time.Second)
			if d < top/2 || d > top {
				t.Fatalf("attempt %d: %v outside [%v, %v]", attempt, d, top/2, top)
			}
		}
	}
}

func TestRetryableStatuses(t *testing.T) {
	for status := 100; status < 600; status++ {
		want := false
		switch status {
		case 408, 409, 429, 500, 502, 503, 504, 529:
			want = true
		}
		if retryableStatus(status) != want {
			t.Errorf("status %d retryable = %v", status, !want)
		}
	}
}
