using System.Text.Json;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Kinds.Http;

public class JourneyTests
{
    [Theory]
    [InlineData("$.items[0].id", "17")]
    [InlineData("$.items[-1].id", "23")]
    [InlineData("$['user name']", "a b")]
    [InlineData("$.items", """[{"id":17},{"id":23}]""")]
    [InlineData("$.token", "t-1")]
    public void AJsonPathFindsOneValueAsAVariableHoldsIt(string path, string expected)
    {
        using var doc = JsonDocument.Parse("""{"token":"t-1","user name":"a b","items":[{"id":17},{"id":23}]}""");
        var found = JsonPath.TryParse(path, out var error)!.Find(doc.RootElement);
        Assert.Null(error);
        Assert.Equal(expected, JsonPath.ValueText(found!.Value));
    }

    [Theory]
    [InlineData("$.items[2]")]
    [InlineData("$.token.length")]
    [InlineData("$.nothing")]
    public void AMissingPathFindsNothing(string path)
    {
        using var doc = JsonDocument.Parse("""{"token":"t-1","items":[{"id":17},{"id":23}]}""");
        Assert.Null(JsonPath.TryParse(path, out _)!.Find(doc.RootElement));
    }

    [Theory]
    [InlineData("items")]
    [InlineData("$..id")]
    [InlineData("$.items[*]")]
    [InlineData("$.items[?(@.id)]")]
    [InlineData("$.items[0")]
    public void FiltersWildcardsAndBrokenPathsAreRefused(string path) => Assert.Null(JsonPath.TryParse(path, out _));

    [Fact]
    public void ATemplateResolvesEachReferenceAndKnowsItsStaticOrigin()
    {
        var t = Template.Parse("https://api.example.net/orders/{{first}}?u={{ connection }}");
        Assert.Equal(["first", "connection"], t.Names);
        Assert.Equal("https://api.example.net/orders/17?u=3", t.Resolve(n => n == "first" ? "17" : "3"));
        Assert.Equal(new Uri("https://api.example.net"), Template.StaticOrigin(t.Text));
        Assert.Null(Template.StaticOrigin("https://{{host}}/x"));
        Assert.True(Template.IsVariableOrigin("https://{{host}}/x"));
        Assert.True(Template.IsVariableOrigin("{{next}}"));
        Assert.False(Template.IsVariableOrigin("ftp://{{host}}/x"));
        Assert.False(Template.IsVariableOrigin("/relative/{{x}}"));
    }

    [Fact]
    public void AReferenceToAValueOnlyALaterStepExtractsIsRefused()
    {
        var p = new HttpParameters
        {
            Requests = 5,
            Steps =
            [
                new() { Name = "a", Url = "http://127.0.0.1:1/{{token}}", Extract = [new() { Name = "token", Header = "X-Token" }] },
                new() { Name = "b", Url = "http://127.0.0.1:1/{{token}}/{{iteration}}" },
            ],
        };
        var errors = HttpParametersValidator.Validate(p, new RunLimits());
        Assert.Equal(["steps[0].url"], errors.Keys);
        Assert.Contains("{{token}}", errors["steps[0].url"][0]);
    }

    [Fact]
    public void AVariantsBadStepIsKeyedUnderTheVariant()
    {
        var step = new HttpStep { Name = "a", Url = "http://127.0.0.1:1/" };
        var p = new HttpParameters
        {
            Requests = 5, Steps = [step],
            Variants = [new() { Name = "A" }, new() { Name = "B", Steps = [step with { Checks = [new() { Status = 42 }] }] }],
        };
        Assert.Equal(["variants[1].steps[0].checks[0].status"], HttpParametersValidator.Validate(p, new RunLimits()).Keys);
    }

    [Fact]
    public void ThinkTimeDrawsStayInTheirShape()
    {
        var random = new Random(7);
        Assert.Equal(250, new HttpThinkTime { Ms = 250 }.Draw(random));
        Assert.All(Enumerable.Range(0, 1000).Select(_ => new HttpThinkTime { MinMs = 10, MaxMs = 20 }.Draw(random)), d => Assert.InRange(d, 10, 20));
        var exponential = Enumerable.Range(0, 20_000).Select(_ => new HttpThinkTime { MeanMs = 100 }.Draw(random)).ToList();
        Assert.InRange(exponential.Average(), 97, 103);
        Assert.All(exponential, d => Assert.InRange(d, 0, HttpThinkTime.MaxPauseMs));
    }

    static Sample S(int index, string series, double ms, ErrorKind error = ErrorKind.None) =>
        new() { Index = index, Series = series, LatencyNs = (long)(ms * 1e6), OffsetNs = index * 1_000_000L, StatusCode = 200, Error = error };

    [Fact]
    public void TheTableHasARowPerStepInOrderThenTheIterationWithEachStepsShare()
    {
        var p = new HttpParameters { Requests = 2, Steps = [new() { Name = "login", Url = "http://h/" }, new() { Name = "list", Url = "http://h/" }] };
        var samples = new List<Sample>
        {
            S(0, "iteration", 40), S(1, "login", 10), S(2, "list", 28),
            S(3, "iteration", 60), S(4, "login", 20), S(5, "list", 38, ErrorKind.CheckFailed),
        };

        var table = JourneyTable.From(p, SeriesStatistics.From(samples))!;

        Assert.Equal(["login", "list", "iteration"], table.Rows.Select(r => r.Step));
        Assert.Equal(0.3, table.Rows[0].Share!.Value, 9); // 30 ms of 100
        Assert.Equal(0.66, table.Rows[1].Share!.Value, 9);
        Assert.Equal((1, 1), (table.Rows[1].Errors, table.Rows[1].FailedChecks));
        Assert.Equal(20_000_000, table.Rows[0].P90Ns);
        Assert.True(table.Rows[2].IsIteration);
        Assert.Null(JourneyTable.From(new HttpParameters { Url = "http://h/" }, SeriesStatistics.From(samples)));

        var answer = JourneyAnswer.Of(table).Single();
        Assert.Equal(["login", "2", "0", "0", "10.000", "20.000", "20.000", "30.0 %"], answer.Rows[0]);
        Assert.Equal("100 %", answer.Rows[2][^1]);
    }

    [Fact]
    public void AJourneySpreadOverAgentsKeepsItsStepsInEveryShareOfTheLoad()
    {
        var p = new HttpParameters { Requests = 10, Concurrency = 4, Steps = [new() { Name = "a", Url = "http://h/" }] };
        var split = new HttpKind(Microsoft.Extensions.Options.Options.Create(new RunLimits()), null!).Split(p, 2);
        Assert.All(split.Parts, part => Assert.Same(p.Steps, ((HttpParameters)part.Parameters).Steps));
        Assert.Equal(10, split.Parts.Sum(part => ((HttpParameters)part.Parameters).Requests));
    }

    [Fact]
    public void ARunOnEachAgentHasTheStepRowsOfEachAgentWithItsVariantsSteps()
    {
        var p = new HttpParameters
        {
            Requests = 1, Steps = [new() { Name = "login", Url = "http://h/" }],
            Variants = [new() { Name = "A" }, new() { Name = "B", Steps = [new() { Name = "login", Url = "http://h/" }, new() { Name = "list", Url = "http://h/" }] }],
        };
        var samples = new List<Sample>
        {
            S(0, "cfg0/A/iteration", 10), S(1, "cfg0/A/login", 9),
            S(2, "cfg0/B/iteration", 30), S(3, "cfg0/B/login", 10), S(4, "cfg0/B/list", 15),
            S(5, "cfg1/A/iteration", 12), S(6, "cfg1/A/login", 11),
        };

        var rows = JourneyTable.From(p, SeriesStatistics.From(samples))!.Rows;

        Assert.Equal(["cfg0/A login", "cfg0/A iteration", "cfg0/B login", "cfg0/B list", "cfg0/B iteration", "cfg1/A login", "cfg1/A iteration"],
            rows.Select(r => $"{r.Variant} {r.Step}"));
        Assert.Equal(0.5, rows[3].Share!.Value, 9);
        Assert.All(rows, r => Assert.Equal(1, r.Count));
    }
}
