package dev.stockade.bench.graphql;

/** Realistic GitHub GraphQL operations (shapes taken from the gh CLI and GitHub's web client). */
final class GithubOperations {

    private GithubOperations() {
    }

    static final String SMALL = """
            query RepoInfo($owner: String!, $name: String!) {
              repository(owner: $owner, name: $name) { id nameWithOwner ...Repo }
            }
            fragment Repo on Repository { stargazerCount isPrivate }
            """;

    static final String MEDIUM_FRAGMENTS = """
            fragment Actor on Actor { login avatarUrl(size: 64) url }
            fragment Label on Label { id name color description }
            fragment PrCore on PullRequest {
              id number title state isDraft createdAt updatedAt mergeable additions deletions changedFiles
              author { ...Actor }
              labels(first: 20) { nodes { ...Label } }
              reviewDecision
              headRefName baseRefName
            }
            """;

    static final String MEDIUM = """
            query PullRequestList($owner: String!, $name: String!, $first: Int = 30, $after: String,
                                  $states: [PullRequestState!] = [OPEN]) {
              viewer { login }
              repository(owner: $owner, name: $name) {
                id nameWithOwner
                pullRequests(first: $first, after: $after, states: $states,
                             orderBy: {field: UPDATED_AT, direction: DESC}) {
                  totalCount
                  pageInfo { hasNextPage endCursor }
                  nodes {
                    ...PrCore
                    reviewRequests(first: 10) { nodes { requestedReviewer { ... on User { ...Actor } ... on Team { name slug } } } }
                    commits(last: 1) { nodes { commit { oid statusCheckRollup { state contexts(first: 50) { nodes {
                      ... on CheckRun { name status conclusion detailsUrl }
                      ... on StatusContext { context state targetUrl }
                    } } } } } }
                    comments(last: 3) { totalCount nodes { id body createdAt author { ...Actor } } }
                  }
                }
              }
              issues: repository(owner: $owner, name: $name) {
                issues(first: $first, states: [OPEN], orderBy: {field: CREATED_AT, direction: DESC}) {
                  totalCount
                  nodes { id number title createdAt updatedAt author { ...Actor } labels(first: 10) { nodes { ...Label } }
                          assignees(first: 5) { nodes { ...Actor } } milestone { title dueOn } }
                }
              }
              rateLimit { cost remaining resetAt }
            }
            """ + MEDIUM_FRAGMENTS;

    static String query(String size) {
        return switch (size) {
            case "small" -> SMALL;
            case "medium" -> MEDIUM;
            case "large" -> large();
            default -> throw new IllegalArgumentException(size);
        };
    }

    /**
     * About 20 KB: a dashboard query fetching eighteen repositories by alias, each with pull requests,
     * issues and releases, sharing fragments.
     */
    static String large() {
        StringBuilder doc = new StringBuilder("query Dashboard(");
        for (int i = 0; i < 18; i++) {
            doc.append(i == 0 ? "" : ", ").append("$owner").append(i).append(": String!, $name").append(i)
                    .append(": String!");
        }
        doc.append(", $first: Int = 20) {\n  viewer { login ...Actor }\n");
        for (int i = 0; i < 18; i++) {
            doc.append("  repo").append(i).append(": repository(owner: $owner").append(i).append(", name: $name")
                    .append(i).append(") {\n").append("""
                        id nameWithOwner description homepageUrl stargazerCount forkCount isArchived pushedAt
                        defaultBranchRef { name target { ... on Commit { oid history(first: 5) { nodes { oid messageHeadline committedDate author { name email user { ...Actor } } } } } } }
                        pullRequests(first: $first, states: [OPEN], orderBy: {field: UPDATED_AT, direction: DESC}) {
                          totalCount pageInfo { hasNextPage endCursor }
                          nodes { ...PrCore reviews(last: 5) { nodes { state submittedAt author { ...Actor } } } }
                        }
                        issues(first: $first, states: [OPEN], filterBy: {since: "2026-01-01T00:00:00Z"}) {
                          totalCount
                          nodes { id number title createdAt author { ...Actor } labels(first: 10) { nodes { ...Label } } assignees(first: 5) { nodes { ...Actor } } }
                        }
                        releases(first: 3, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { name tagName publishedAt isPrerelease } }
                        languages(first: 5, orderBy: {field: SIZE, direction: DESC}) { edges { size node { name color } } }
                      }
                    """);
        }
        doc.append("  rateLimit { cost remaining resetAt }\n}\n").append(MEDIUM_FRAGMENTS);
        return doc.toString();
    }

    /** The JSON POST body a client sends for {@code query}. */
    static String body(String query, String size) {
        StringBuilder variables = new StringBuilder("{");
        if (size.equals("large")) {
            for (int i = 0; i < 18; i++) {
                variables.append(i == 0 ? "" : ",").append("\"owner").append(i).append("\":\"acme\",\"name").append(i)
                        .append("\":\"app").append(i).append('"');
            }
        } else {
            variables.append("\"owner\":\"acme\",\"name\":\"app\"");
        }
        return "{\"operationName\":null,\"query\":" + quote(query) + ",\"variables\":" + variables + "}}";
    }

    private static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
