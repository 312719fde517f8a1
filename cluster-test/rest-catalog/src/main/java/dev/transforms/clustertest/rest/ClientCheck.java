package dev.transforms.clustertest.rest;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a deployment puts in front of a REST catalog, reduced to what the test needs to prove that the
 * client's properties arrive: the OAuth2 token endpoint ({@code POST /v1/oauth/tokens}, client
 * credentials grant) checks the client id and secret and hands out one bearer token; every other call
 * must carry that token and the required header, or is refused with 401 or 400. Refusals are logged by
 * method and path only, never with a credential.
 */
final class ClientCheck implements Filter {

  private static final String TOKEN_PATH = "/v1/oauth/tokens";

  private final String clientId;
  private final String clientSecret;
  private final String token;
  private final String headerName;
  private final String headerValue;
  private final AtomicLong served = new AtomicLong();

  ClientCheck(String clientId, String clientSecret, String token, String headerName, String headerValue) {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.token = token;
    this.headerName = headerName;
    this.headerValue = headerValue;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain) throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) resp;
    String path = request.getRequestURI();
    if (!headerValue.equals(request.getHeader(headerName))) {
      refuse(request, response, HttpServletResponse.SC_BAD_REQUEST, "missing header " + headerName);
      return;
    }
    if (path.endsWith(TOKEN_PATH) && "POST".equals(request.getMethod())) {
      issueToken(request, response);
      return;
    }
    if (!("Bearer " + token).equals(request.getHeader("Authorization"))) {
      refuse(request, response, HttpServletResponse.SC_UNAUTHORIZED, "no valid bearer token");
      return;
    }
    served.incrementAndGet();
    chain.doFilter(req, resp);
  }

  private void issueToken(HttpServletRequest request, HttpServletResponse response) throws IOException {
    Map<String, String> form = parseForm(new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    String id = form.get("client_id");
    String secret = form.get("client_secret");
    String basic = request.getHeader("Authorization");
    if (basic != null && basic.startsWith("Basic ")) {
      String pair = new String(Base64.getDecoder().decode(basic.substring(6)), StandardCharsets.UTF_8);
      int colon = pair.indexOf(':');
      id = URLDecoder.decode(pair.substring(0, colon), StandardCharsets.UTF_8);
      secret = URLDecoder.decode(pair.substring(colon + 1), StandardCharsets.UTF_8);
    }
    if (!"client_credentials".equals(form.get("grant_type")) || !clientId.equals(id) || !clientSecret.equals(secret)) {
      refuse(request, response, HttpServletResponse.SC_UNAUTHORIZED, "wrong client credentials");
      return;
    }
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType("application/json");
    response.getWriter().write("{\"access_token\":\"" + token + "\",\"token_type\":\"bearer\","
        + "\"issued_token_type\":\"urn:ietf:params:oauth:token-type:access_token\",\"expires_in\":3600}");
    System.out.println("REST catalog: issued a token to client " + id);
  }

  private static Map<String, String> parseForm(String body) {
    Map<String, String> form = new HashMap<>();
    for (String pair : body.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        form.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return form;
  }

  private void refuse(HttpServletRequest request, HttpServletResponse response, int status, String why) throws IOException {
    System.out.println("REST catalog: refused " + request.getMethod() + " " + request.getRequestURI() + ": " + why);
    response.setStatus(status);
    response.setContentType("application/json");
    response.getWriter().write("{\"error\":{\"message\":\"" + why + "\",\"type\":\"NotAuthorizedException\",\"code\":"
        + status + "}}");
  }

  @Override
  public void destroy() {
    System.out.println("REST catalog: served " + served.get() + " authorized requests");
  }
}
