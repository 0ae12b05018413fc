package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.provider.ToolSpec;
import dev.stockade.runtime.store.AgentStore;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The agent's tools and the lock: while locked, frozen tools are withheld from the model and any call
 * to one is refused with what it would have changed and where the lock is lifted.
 */
public final class Toolbox {
    static final ObjectMapper JSON = new ObjectMapper();
    /** Where the owner lifts the lock, named in every refusal. */
    static final String LOCK_HINT = "The agent is locked in, so nothing was changed. The owner can unlock it "
            + "with the lock toggle on the profile page or PATCH /agents/locked-in {\"lockedIn\": false}.";

    private final List<Tool> tools = new ArrayList<>();
    private final AgentStore agents;

    public Toolbox(AgentStore agents, Documents docs, Memory memory, Shell shell, Skills skills) {
        this(agents, docs, memory, shell, skills, List.of());
    }

    /** As above, plus the tools a configured channel offers (the meeting tools); the agent knows none by name. */
    public Toolbox(AgentStore agents, Documents docs, Memory memory, Shell shell, Skills skills,
            List<Tool> channelTools) {
        this.agents = agents;
        tools.addAll(DocumentTools.all(docs));
        tools.addAll(MemoryTools.all(memory));
        tools.add(settingsTool());
        tools.add(renameTool());
        tools.add(shell.tool());
        tools.add(skills.tool());
        tools.addAll(channelTools);
    }

    /** The specs offered to the model now: frozen tools withheld while locked. */
    public List<ToolSpec> offered(boolean locked) {
        return tools.stream().filter(t -> !(locked && t.frozen())).map(Tool::spec).collect(Collectors.toList());
    }

    /** All tool names, for tests and docs. */
    public List<String> names() {
        return tools.stream().map(Tool::name).toList();
    }

    /** Result of one call. */
    public record Result(String output, boolean error) {
    }

    /** Runs a call; the lock is read now, so a lock set mid-turn applies to the next call. */
    public Result call(String name, JsonNode input) {
        Tool t = tools.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        if (t == null) {
            return new Result("unknown tool `" + name + "`", true);
        }
        try {
            if (t.frozen() && agents.profile().lockedIn()) {
                return new Result("Refused: this would have " + t.change().describe(input) + ". " + LOCK_HINT, true);
            }
            return new Result(t.handler().call(input), false);
        } catch (Tool.ToolError e) {
            return new Result(e.getMessage(), true);
        } catch (Exception e) {
            return new Result("the tool failed (" + e.getClass().getSimpleName() + ")", true);
        }
    }

    /** A JSON Schema object with string or other properties: {@code props} alternates name, type. */
    static ObjectNode schema(List<String> required, String... props) {
        ObjectNode s = JSON.createObjectNode().put("type", "object");
        ObjectNode p = s.putObject("properties");
        for (int i = 0; i + 1 < props.length; i += 2) {
            p.putObject(props[i]).put("type", props[i + 1]);
        }
        required.forEach(s.putArray("required")::add);
        return s;
    }

    static String text(JsonNode input, String field) throws Tool.ToolError {
        JsonNode n = input.get(field);
        if (n == null || !n.isTextual()) {
            throw new Tool.ToolError("`" + field + "` must be a string");
        }
        return n.asText();
    }

    private Tool settingsTool() {
        ToolSpec spec = new ToolSpec("update_settings", "Change chat settings: verbose (deliver every text step), "
                + "heartbeatIntervalMinutes (0 disables), timezone (IANA name). The lock is not a setting you can "
                + "change.", schema(List.of(), "verbose", "boolean", "heartbeatIntervalMinutes", "integer",
                        "timezone", "string"));
        return new Tool(spec, false, in -> {
            if (in.has("lockedIn")) {
                throw new Tool.ToolError("the agent cannot change the lock; only the owner can, from the profile "
                        + "toggle or PATCH /agents/locked-in");
            }
            List<String> done = new ArrayList<>();
            if (in.has("verbose")) {
                agents.setVerbose(in.get("verbose").asBoolean());
                done.add("verbose=" + in.get("verbose").asBoolean());
            }
            if (in.has("heartbeatIntervalMinutes")) {
                int m = in.get("heartbeatIntervalMinutes").asInt(-1);
                if (m < 0 || m > 7 * 24 * 60) {
                    throw new Tool.ToolError("`heartbeatIntervalMinutes` must be 0 to 10080");
                }
                agents.setHeartbeatInterval(m);
                done.add("heartbeatIntervalMinutes=" + m);
            }
            if (in.has("timezone")) {
                String z = in.get("timezone").asText();
                try {
                    agents.setTimezone(ZoneId.of(z).getId());
                } catch (Exception e) {
                    throw new Tool.ToolError("`timezone` must be an IANA zone such as Europe/Berlin");
                }
                done.add("timezone=" + z);
            }
            return done.isEmpty() ? "nothing to change" : "updated " + String.join(", ", done);
        }, null);
    }

    private Tool renameTool() {
        ToolSpec spec = new ToolSpec("rename_self", "Change your display name.", schema(List.of("name"), "name",
                "string"));
        return new Tool(spec, false, in -> {
            String name = text(in, "name").strip();
            if (name.isEmpty() || name.length() > 80) {
                throw new Tool.ToolError("`name` must be 1 to 80 characters");
            }
            agents.rename(name);
            return "renamed to " + name;
        }, null);
    }
}
