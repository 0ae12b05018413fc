package dev.stockade.runtime;

/** Real payload shapes of common webhook senders (trimmed to the fields that matter, structure kept). */
final class Payloads {
    private Payloads() {
    }

    static final String GITHUB_PUSH = """
            {"ref":"refs/heads/main","before":"6113728f27ae82c7b1a177c8d03f9e96e0adf246",
             "after":"59b20b8d5c6ff8d09518216e6c8a8ba0e9bcd6d7",
             "repository":{"id":186853002,"name":"shop","full_name":"acme/shop","private":false,
               "owner":{"login":"acme","id":1},"default_branch":"main"},
             "pusher":{"name":"ada","email":"ada@example.com"},
             "sender":{"login":"ada","id":21031067},
             "commits":[{"id":"59b20b8d5c6ff8d09518216e6c8a8ba0e9bcd6d7","message":"fix checkout rounding",
               "timestamp":"2026-11-23T10:00:00Z","author":{"name":"Ada","username":"ada"},
               "added":[],"removed":[],"modified":["src/cart.js"]}],
             "head_commit":{"id":"59b20b8d5c6ff8d09518216e6c8a8ba0e9bcd6d7","message":"fix checkout rounding"}}""";

    static final String GITHUB_PULL_REQUEST = """
            {"action":"opened","number":42,
             "pull_request":{"url":"https://api.github.com/repos/acme/shop/pulls/42","id":1,"number":42,
               "state":"open","title":"Add gift cards","user":{"login":"grace"},"body":"Adds gift cards.",
               "head":{"ref":"gift-cards","sha":"aaa"},"base":{"ref":"main","sha":"bbb"},
               "merged":false,"additions":120,"deletions":4,"changed_files":6},
             "repository":{"full_name":"acme/shop"},"sender":{"login":"grace"}}""";

    static final String GITLAB_MERGE_REQUEST = """
            {"object_kind":"merge_request","event_type":"merge_request",
             "user":{"id":1,"name":"Ada","username":"ada"},
             "project":{"id":1,"name":"shop","path_with_namespace":"acme/shop"},
             "object_attributes":{"id":99,"iid":7,"title":"Refactor cart","state":"opened","action":"open",
               "source_branch":"refactor","target_branch":"main","url":"https://gitlab.example.com/acme/shop/-/merge_requests/7"},
             "labels":[],"changes":{}}""";

    static final String ALERTMANAGER = """
            {"version":"4","groupKey":"{}:{alertname=\\"HighLatency\\"}","truncatedAlerts":0,"status":"firing",
             "receiver":"agent","groupLabels":{"alertname":"HighLatency"},
             "commonLabels":{"alertname":"HighLatency","severity":"critical","service":"checkout"},
             "commonAnnotations":{"summary":"p99 latency above 2s"},"externalURL":"http://alertmanager:9093",
             "alerts":[{"status":"firing","labels":{"alertname":"HighLatency","instance":"checkout-1"},
               "annotations":{"summary":"p99 latency above 2s"},"startsAt":"2026-11-23T09:58:00Z",
               "endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prometheus:9090/graph","fingerprint":"c0ffee"}]}""";

    static final String INCIDENT = """
            {"event":{"id":"01HZX","event_type":"incident.triggered","resource_type":"incident",
               "occurred_at":"2026-11-23T10:00:00Z",
               "data":{"id":"PABC12","type":"incident","title":"Checkout down","urgency":"high","status":"triggered"}}}""";
}
