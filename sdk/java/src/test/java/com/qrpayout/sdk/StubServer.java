package com.qrpayout.sdk;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * A local HTTP server answering from a script: each request takes the next answer (the last one
 * repeats), and is recorded with its headers.
 */
final class StubServer implements AutoCloseable {
  /** One scripted answer; {@code status} 0 drops the connection without answering. */
  record Answer(int status, Map<String, String> headers, String body) {
    static Answer json(int status, String body) {
      return new Answer(status, Map.of("content-type", "application/json"), body);
    }

    static Answer drop() {
      return new Answer(0, Map.of(), "");
    }
  }

  /** A request received. */
  record Received(String method, String path, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  private final HttpServer server;
  private final Deque<Answer> script = new ArrayDeque<>();
  private final List<Received> received = new ArrayList<>();

  StubServer(Answer... answers) throws IOException {
    script.addAll(List.of(answers));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  synchronized List<Received> received() {
    return List.copyOf(received);
  }

  private void handle(HttpExchange exchange) throws IOException {
    Answer answer;
    synchronized (this) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      received.add(
          new Received(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              Map.copyOf(exchange.getRequestHeaders()),
              body));
      answer = script.size() > 1 ? script.poll() : script.peek();
    }
    if (answer.status() == 0) {
      exchange.close();
      return;
    }
    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
    answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
    exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
