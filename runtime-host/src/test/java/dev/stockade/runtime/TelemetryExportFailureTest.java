package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A collector that refuses an export gets one structured warning naming only the kind of failure: the SDK's own
 * unstructured java.util.logging text, which quotes the collector's answer, never reaches the runtime's log.
 */
class TelemetryExportFailureTest {
    @Test
    void aRefusedExportIsOneStructuredWarningWithoutTheCollectorsAnswer() throws Exception {
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/logs", ex -> {
            ex.getRequestBody().readAllBytes();
            byte[] body = "COLLECTOR-SAYS-SECRET".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(401, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        collector.start();
        List<LogRecord> sdkLines = Collections.synchronizedList(new ArrayList<>());
        Logger sdkLog = Logger.getLogger("io.opentelemetry");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                sdkLines.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        sdkLog.addHandler(capture);
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        Log.to(new PrintStream(logs, true, StandardCharsets.UTF_8));
        String endpoint = "http://127.0.0.1:" + collector.getAddress().getPort();
        Telemetry telemetry = Telemetry.of(endpoint, "otel-collector-key", "staging", null);
        try {
            telemetry.event("agent.turn", "steps", 1);
            Await.until("the export failure warning", () -> logs.toString(StandardCharsets.UTF_8)
                    .contains("\"telemetry.export_failed\""));
        } finally {
            telemetry.close();
            Log.to(System.err);
            sdkLog.removeHandler(capture);
            collector.stop(0);
        }
        String log = logs.toString(StandardCharsets.UTF_8);
        assertThat(log).contains("\"level\":\"warn\"").contains("\"records\":1")
                .doesNotContain("COLLECTOR-SAYS-SECRET").doesNotContain("otel-collector-key").doesNotContain(endpoint);
        assertThat(sdkLines).isEmpty();
    }
}
