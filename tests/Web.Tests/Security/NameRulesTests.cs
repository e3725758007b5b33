using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>One rule for names and stored text on both stores: what a terminal or a page cannot show as written is refused, look-alikes are one name, races and odd bytes are field errors, never a 503.</summary>
public class NameRulesTests
{
    const string Key = "names-key";

    public static TheoryProviders Providers => TestDatabase.Providers;

    static async Task<(DashboardFactory App, HttpClient Admin)> DashboardAsync(string provider, Dictionary<string, string?>? more = null)
    {
        var settings = new Dictionary<string, string?> { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Runner:Embedded"] = "false" };
        foreach (var (k, v) in more ?? []) settings[k] = v;
        var app = await DashboardFactory.OnAsync(provider, settings);
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return (app, admin);
    }

    static StringContent Benchmark(string name) => new(JsonSerializer.Serialize(new
    {
        name, kind = "http", parameters = new { url = "http://127.0.0.1:1/", requests = 5, timeoutMs = 1000 },
    }), Encoding.UTF8, "application/json");

    [Theory, MemberData(nameof(Providers))]
    public async Task NamesThatForgeOutputOrLookLikeAnotherAreRefusedAndComposedFormsAreOneName(string provider)
    {
        var (app, admin) = await DashboardAsync(provider);
        await using var _ = app;
        foreach (var name in new[] { "line1\nVERDICT: PASSED", "a\0b", "x\u001b]8;;http://evil.example\u001b\\link\u001b]8;;\u001b\\", "ab\u200Bc", "ab\u202Ec", "tab\there" })
        {
            var refused = await admin.PostAsync("/api/benchmarks", Benchmark(name));
            Assert.True(refused.StatusCode == HttpStatusCode.BadRequest, $"{JsonSerializer.Serialize(name)}: {refused.StatusCode}");
            var errors = (await refused.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");
            Assert.True(errors.TryGetProperty("name", out var field) && field.GetArrayLength() > 0, $"{JsonSerializer.Serialize(name)}: {errors}");
        }
        var half = await admin.PostAsync("/api/benchmarks", new StringContent( // a lone surrogate, as raw JSON can carry one
            """{"name":"half \ud800","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5}}""", Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.BadRequest, half.StatusCode);
        var import = await admin.PostAsync("/api/benchmarks/import", new StringContent(
            """{"benchmarks":[{"name":"n\u0000ul","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5}}]}""", Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.BadRequest, import.StatusCode);
        Assert.Empty((await admin.GetFromJsonAsync<JsonElement>("/api/benchmarks")).EnumerateArray());

        Assert.Equal(HttpStatusCode.Created, (await admin.PostAsync("/api/benchmarks", Benchmark(" caf\u00e9 "))).StatusCode);
        var twin = await admin.PostAsync("/api/benchmarks", Benchmark("cafe\u0301")); // e and a combining accent: é in another form
        Assert.Equal(HttpStatusCode.BadRequest, twin.StatusCode);
        Assert.Contains("A benchmark with this name exists.", await twin.Content.ReadAsStringAsync());
        Assert.Equal("caf\u00e9", Assert.Single((await admin.GetFromJsonAsync<JsonElement>("/api/benchmarks")).EnumerateArray()).GetProperty("name").GetString());
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task TenCreatesOfOneNameAtOnceAreOneBenchmarkAndNineFieldErrors(string provider)
    {
        var (app, admin) = await DashboardAsync(provider);
        await using var _ = app;

        var answers = await Task.WhenAll(Enumerable.Range(0, 10).Select(_ => admin.PostAsync("/api/benchmarks", Benchmark("raced"))));

        Assert.Equal([(HttpStatusCode.Created, 1), (HttpStatusCode.BadRequest, 9)],
            answers.GroupBy(a => a.StatusCode).OrderBy(g => g.Key).Select(g => (g.Key, g.Count())));
        foreach (var refused in answers.Where(a => a.StatusCode == HttpStatusCode.BadRequest))
            Assert.Contains("A benchmark with this name exists.", await refused.Content.ReadAsStringAsync());
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task AReceiverWhoseStatusLineHoldsANulGetsItsAttemptsCountedAndThenNoMore(string provider)
    {
        await using var receiver = new ScriptedTcpTarget("HTTP/1.1 500 Bad\0Thing\r\nContent-Length: 0\r\n\r\n");
        var (app, _) = await DashboardAsync(provider, new()
        {
            ["Webhooks:SigningKey"] = "a-signing-key-for-the-name-tests", ["Webhooks:PollIntervalMs"] = "50", ["Webhooks:MaxAttempts"] = "2",
            ["Webhooks:FirstRetrySeconds"] = "0.2", ["Runner:Embedded"] = "true",
        });
        await using var __ = app;
        long runId;
        await using (var scope = app.Services.CreateAsyncScope())
        {
            var (saved, errors) = await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().SaveAsync(null, "nul receiver",
                new HttpParameters { Url = "http://127.0.0.1:1/", Requests = 2, TimeoutMs = 500 }, null, true, default,
                new Thresholds { MaxErrorPercent = 0 }, webhookUrls: [receiver.Url("/hook").ToString()]);
            Assert.Empty(errors);
            runId = (await scope.ServiceProvider.GetRequiredService<RunQueue>().EnqueueAsync(saved!, default)).Run!.Id;
        }

        var deadline = DateTime.UtcNow.AddSeconds(60);
        WebhookDelivery? delivery = null;
        while (DateTime.UtcNow < deadline)
        {
            await using var scope = app.Services.CreateAsyncScope();
            delivery = await scope.ServiceProvider.GetRequiredService<BenchDbContext>().WebhookDeliveries.AsNoTracking().FirstOrDefaultAsync(d => d.RunId == runId);
            if (delivery is { Status: DeliveryStatus.Failed }) break;
            await Task.Delay(100);
        }

        Assert.NotNull(delivery);
        Assert.Equal((DeliveryStatus.Failed, 2), (delivery!.Status, delivery.Attempts));
        Assert.DoesNotContain('\0', delivery.LastError ?? "");
        await Task.Delay(500);
        Assert.Equal(2, receiver.Requests.Count);
    }
}
