package dev.stockade.runtime.web;

import dev.stockade.runtime.agent.Agent;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.Documents;
import dev.stockade.runtime.agent.Memory;
import dev.stockade.runtime.channel.SlackDestinations;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.store.AgentStore;
import dev.stockade.runtime.webhook.WebhookStore;

/**
 * The web UI the runtime serves at its own origin: chat, profile, documents, memory, webhooks and channels. The
 * platform in front authenticates; the pages use relative URLs only, so they work behind its ingress at any prefix.
 */
public final class WebUi {
    private final AgentStore agents;
    private final Agent agent;
    private final Conversations conversations;
    private final Documents docs;
    private final Memory memory;
    private final WebhookStore webhooks;
    private final SlackDestinations slack;

    public WebUi(AgentStore agents, Agent agent, Conversations conversations, Documents docs, Memory memory,
            WebhookStore webhooks, SlackDestinations slack) {
        this.agents = agents;
        this.agent = agent;
        this.conversations = conversations;
        this.docs = docs;
        this.memory = memory;
        this.webhooks = webhooks;
        this.slack = slack;
    }

    /** Adds the pages and the endpoints only they need. */
    public void routes(Router r) {
        new WebChat(agents, agent, conversations).routes(r);
        new ProfilePages(agents, docs, memory).routes(r);
        new WebhookPages(agents, webhooks).routes(r);
        new ChannelPages(agents, slack).routes(r);
    }
}
