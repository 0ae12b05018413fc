package dev.stockade.runtime.agent;

import dev.stockade.runtime.store.AgentProfile;
import java.sql.SQLException;

/** What the model is told before the thread: the documents, the skills present now, and how to link. */
public record SystemPrompt(Documents docs, Skills skills, PublicLinks links) {
    String build(AgentProfile p) throws SQLException {
        return Context.system(p, docs) + skills.promptSection() + links.promptSection();
    }
}
