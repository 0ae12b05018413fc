package dev.stockade.api.inference;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Text;
import dev.stockade.policy.model.Provider;
import java.util.regex.Pattern;

/**
 * Where an {@code /llm/...} call goes, read from the path after {@code /llm/} (spec: the Inference routes table):
 * the backend, the wire format family its route speaks, the AWS region for the region-scoped backends, and the
 * rest of the path as the SDK sent it.
 *
 * @param provider the backend
 * @param family   the wire format family of the route ({@code azure/anthropic} speaks Anthropic's, {@code openai}
 *                 OpenAI's, {@code bedrock} Bedrock runtime's)
 * @param region   the AWS region ({@code bedrock}, {@code bedrock-mantle}), else null
 * @param tail     the path after the route's prefix, percent-encoded as received, without a leading slash
 */
record LlmRoute(Provider provider, Family family, String region, String tail) {
    /** The wire format family a route speaks. */
    enum Family { ANTHROPIC, OPENAI, BEDROCK }

    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-[0-9]{1,2}");
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._~:@!$&'()*+,;=-]|%[0-9A-Fa-f]{2}");

    /** Reads {@code path}, the part after {@code /llm/}; an unknown backend or malformed path is a 404 problem. */
    static LlmRoute parse(String path) {
        String[] parts = path.split("/", -1);
        Provider provider = Provider.fromWire(parts[0]);
        if (provider == null) {
            throw unknown("no backend `" + Text.clip(parts[0]) + "` (one of bedrock, azure, bedrock-mantle, openai,"
                    + " openrouter, litellm)");
        }
        LlmRoute route = switch (provider) {
            case BEDROCK -> new LlmRoute(provider, Family.BEDROCK, region(parts, 1), rest(parts, 2));
            case OPENAI -> new LlmRoute(provider, Family.OPENAI, null, rest(parts, 1));
            case BEDROCK_MANTLE -> new LlmRoute(provider, family(parts), region(parts, 2), rest(parts, 3));
            case AZURE, OPENROUTER, LITELLM -> new LlmRoute(provider, family(parts), null, rest(parts, 2));
        };
        checkTail(route.tail);
        return route;
    }

    /** The part of a route's path that names it, for messages and the audit trail ({@code azure/openai}). */
    String prefix() {
        return switch (provider) {
            case BEDROCK -> "bedrock/" + region;
            case OPENAI -> "openai";
            case BEDROCK_MANTLE -> "bedrock-mantle/" + family.name().toLowerCase(java.util.Locale.ROOT) + "/" + region;
            default -> provider.wire() + "/" + family.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static Family family(String[] parts) {
        String f = parts.length > 1 ? parts[1] : "";
        return switch (f) {
            case "anthropic" -> Family.ANTHROPIC;
            case "openai" -> Family.OPENAI;
            default -> throw unknown("`" + parts[0] + "` has two routes, `" + parts[0] + "/anthropic/...` and `"
                    + parts[0] + "/openai/...`, not `" + Text.clip(f) + "`");
        };
    }

    private static String region(String[] parts, int index) {
        String r = parts.length > index ? parts[index] : "";
        if (!REGION.matcher(r).matches()) {
            throw unknown("`" + Text.clip(r) + "` is not an AWS region (like us-east-1)");
        }
        return r;
    }

    private static String rest(String[] parts, int from) {
        return from >= parts.length ? "" : String.join("/", java.util.Arrays.copyOfRange(parts, from, parts.length));
    }

    /** No dot segments and nothing but path characters: the tail is appended to the backend's URL as is. */
    private static void checkTail(String tail) {
        for (String segment : tail.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..") || segment.toLowerCase(java.util.Locale.ROOT).matches(
                    "(%2e|\\.){1,2}") || !SEGMENT.matcher("").reset(segment).replaceAll("").isEmpty()) {
                throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "the path segment `" + Text.clip(segment)
                        + "` is not allowed in a model call's path");
            }
        }
    }

    private static ApiProblem unknown(String detail) {
        return new ApiProblem(ProblemCode.INFERENCE_NOT_AVAILABLE, detail);
    }
}
