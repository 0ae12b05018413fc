package dev.stockade.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import java.util.Map;

/** Cron tasks over HTTP: list, add (expression validated), delete. */
final class CronRoutes {
    private final Schedules schedules;

    CronRoutes(Schedules schedules) {
        this.schedules = schedules;
    }

    void routes(Router r) {
        r.add("GET", "/agents/cron-tasks", req -> Response.json(200, Map.of("tasks", schedules.tasks())));
        r.add("POST", "/agents/cron-tasks", req -> {
            JsonNode b = req.jsonObject();
            if (!b.path("expression").isTextual() || !b.path("prompt").isTextual() || b.get("prompt").asText().isBlank()) {
                throw new HttpProblem(400, "invalid-field", "`expression` and `prompt` must be strings");
            }
            try {
                Schedules.parse(b.get("expression").asText());
            } catch (IllegalArgumentException e) {
                throw new HttpProblem(400, "invalid-cron", "`expression` must be a standard five-field cron "
                        + "expression such as `0 9 * * 1-5`");
            }
            String model = b.path("model").isTextual() && !b.get("model").asText().isBlank()
                    ? b.get("model").asText() : null;
            return Response.json(201, schedules.add(b.get("expression").asText(), b.get("prompt").asText(), model));
        });
        r.add("DELETE", "/agents/cron-tasks/{id}", req -> {
            if (!schedules.delete(req.param("id"))) {
                throw new HttpProblem(404, "no-task", "no such cron task");
            }
            return Response.noContent();
        });
    }
}
