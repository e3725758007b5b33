using System.Text;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Kinds.Http.Journeys.Har;

namespace BenchDashboard.Core.Tests.Kinds.Http.Journeys;

/// <summary>A browser's saved session (Fixtures/journey.har: sign-in, a script, an image, a preflight, orders with a token ...) as steps.</summary>
public sealed class HarImportTests
{
    static string Har => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", "journey.har"));

    static (HarJourney? Journey, Dictionary<string, string> Errors) Convert(string har, bool keepStatic = false)
    {
        var errors = new Dictionary<string, string>();
        var journey = HarImport.Convert(Encoding.UTF8.GetBytes(har), keepStatic, (field, message) => errors[field] = message);
        return (journey, errors);
    }

    [Fact]
    public void TheJourneysRequestsBecomeStepsInTheOrderTheyStartedNamedByMethodAndLastSegment()
    {
        var (journey, errors) = Convert(Har);

        Assert.Empty(errors);
        Assert.Equal(["POST signin", "GET orders", "GET 17", "GET orders 2"], journey!.Steps.Select(s => s.Name));
        Assert.Equal(["https://shop.example/journey/signin", "https://shop.example/journey/orders", "https://shop.example/journey/orders/17", "https://shop.example/journey/orders?page=2"],
            journey.Steps.Select(s => s.Url));
        Assert.Equal(["POST", "GET", "GET", "GET"], journey.Steps.Select(s => s.Method));
    }

    [Fact]
    public void StaticAssetsPreflightsUnansweredAndNonHttpRequestsAreSkippedWithTheirReasons()
    {
        var (journey, _) = Convert(Har);

        var skipped = journey!.Skipped.ToDictionary(s => s.Entry, s => s.Reason);
        Assert.Equal([1, 2, 3, 7, 8], skipped.Keys.Order());
        Assert.Equal("a static asset (a script)", skipped[1]);
        Assert.Equal("a static asset (an image)", skipped[2]);
        Assert.Contains("CORS preflight", skipped[3]);
        Assert.Equal("not an HTTP request (wss:)", skipped[7]);
        Assert.Contains("no answer", skipped[8]);
    }

    [Fact]
    public void KeepingStaticAssetsKeepsThemInTheirPlace()
    {
        var (journey, _) = Convert(Har, keepStatic: true);

        Assert.Equal(["GET app.js", "POST signin", "GET logo", "GET orders", "GET 17", "GET orders 2"], journey!.Steps.Select(s => s.Name));
    }

    [Fact]
    public void VolatileHeadersAreDroppedAndTheUsersOwnCredentialsKept()
    {
        var (journey, _) = Convert(Har);

        var signIn = journey!.Steps[0];
        Assert.Equal(["accept", "content-type", "cookie", "origin"], signIn.Headers!.Keys.Order());
        Assert.Equal("consent=yes; session=9f2c", signIn.Headers["cookie"]);
        Assert.Equal("""{"user":"ana","password":"secret"}""", signIn.Body);
        var orders = journey.Steps[1];
        Assert.Equal(["accept", "authorization"], orders.Headers!.Keys.Order());
        Assert.Equal("Bearer abc", orders.Headers["Authorization"]);
        Assert.True(HarHeaders.IsSecret("Authorization") && HarHeaders.IsSecret("cookie") && !HarHeaders.IsSecret("accept"));
    }

    [Fact]
    public void EachStepChecksTheRecordedStatusAndANotModifiedWithoutItsConditionIsA200()
    {
        var (journey, _) = Convert(Har);

        Assert.All(journey!.Steps, s => Assert.Single(s.Checks!));
        Assert.Equal([200, 200, 200, 200], journey.Steps.Select(s => s.Checks![0].Status));
    }

    [Fact]
    public void TheStepsPassTheJourneyValidator()
    {
        var (journey, _) = Convert(Har, keepStatic: true);
        var errors = new List<string>();

        JourneyValidator.Validate(journey!.Steps, (field, message) => errors.Add($"{field}: {message}"));

        Assert.Empty(errors);
    }

    [Fact]
    public void AFormPostsParametersBecomeItsBody()
    {
        var har = Entries("""{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"post","url":"http://a.example/login","headers":[],"postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"user","value":"a b"},{"name":"pw","value":"x&y"}]}},"response":{"status":302,"content":{"mimeType":"text/html"}}}""");

        var step = Assert.Single(Convert(har).Journey!.Steps);

        Assert.Equal("POST", step.Method);
        Assert.Equal("user=a%20b&pw=x%26y", step.Body);
        Assert.Equal("application/x-www-form-urlencoded", step.Headers!["Content-Type"]);
        Assert.Equal(302, step.Checks![0].Status);
    }

    [Fact]
    public void BeyondFiftyStepsTheRestAreSkippedAndSaySo()
    {
        var har = Entries(string.Join(",", Enumerable.Range(0, 53).Select(i =>
            $$$"""{"startedDateTime":"2026-11-20T10:00:{{{i / 10:00}}}.{{{i % 10}}}00Z","request":{"method":"GET","url":"http://a.example/item/x","headers":[]},"response":{"status":200}}""")));

        var journey = Convert(har).Journey!;

        Assert.Equal(JourneyValidator.MaxSteps, journey.Steps.Count);
        Assert.Equal("GET x 50", journey.Steps[^1].Name);
        Assert.Equal([50, 51, 52], journey.Skipped.Select(s => s.Entry));
        Assert.All(journey.Skipped, s => Assert.Contains("50 steps", s.Reason));
    }

    [Fact]
    public void ALongNameIsCutAndStillUnique()
    {
        var segment = new string('s', 100);
        var har = Entries(string.Join(",", Enumerable.Range(0, 2).Select(i =>
            $$$"""{"startedDateTime":"2026-11-20T10:00:0{{{i}}}Z","request":{"method":"GET","url":"http://a.example/{{{segment}}}","headers":[]},"response":{"status":200}}""")));

        var names = Convert(har).Journey!.Steps.Select(s => s.Name).ToList();

        Assert.All(names, n => Assert.True(n.Length <= JourneyValidator.MaxNameLength));
        Assert.Equal(2, names.Distinct().Count());
        Assert.EndsWith(" 2", names[1]);
    }

    [Fact]
    public void ANameCutInsideAnEmojiKeepsNoHalfOfIt()
    {
        var segment = new string('s', 59) + "\U0001F600"; // "GET " + 59 + the emoji's two chars: the cut at 64 falls between them
        var har = Entries($$$"""{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://a.example/{{{Uri.EscapeDataString(segment)}}}","headers":[]},"response":{"status":200}}""");

        var name = Assert.Single(Convert(har).Journey!.Steps).Name;

        Assert.Equal("GET " + new string('s', 59), name);
    }

    [Fact]
    public void ABodyLargerThanAStepMaySendIsSkipped()
    {
        var body = new string('x', HttpParametersValidator.MaxBodyLength + 1);
        var har = Entries($$$"""{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"POST","url":"http://a.example/up","headers":[],"postData":{"mimeType":"text/plain","text":"{{{body}}}"}},"response":{"status":200}}""");

        var journey = Convert(har).Journey!;

        Assert.Empty(journey.Steps);
        Assert.Contains("64 KiB", Assert.Single(journey.Skipped).Reason);
    }

    public static TheoryData<string, string> NotHar => new()
    {
        { "not json", "body" },
        { "[]", "log" },
        { """{"log":{}}""", "log.entries" },
        { Entries("""1"""), "log.entries[0]" },
        { Entries("""{"request":{"method":"GET","url":"http://a.example/","headers":[]},"response":{"status":200}}"""), "log.entries[0].startedDateTime" },
        { Entries("""{"startedDateTime":"2026-11-20T10:00:00Z","response":{"status":200}}"""), "log.entries[0].request" },
        { Entries(Ok + """,{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"/relative","headers":[]},"response":{"status":200}}"""), "log.entries[1].request.url" },
        { Entries("""{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"G T","url":"http://a.example/","headers":[]},"response":{"status":200}}"""), "log.entries[0].request.method" },
        { Entries("""{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://a.example/","headers":[{"name":"a"}]},"response":{"status":200}}"""), "log.entries[0].request.headers[0]" },
        { Entries("""{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://a.example/","headers":[]},"response":{"status":"200"}}"""), "log.entries[0].response.status" },
    };

    [Theory]
    [MemberData(nameof(NotHar))]
    public void AFileThatIsNotHarIsRefusedNamingTheField(string har, string field)
    {
        var (journey, errors) = Convert(har);

        Assert.Null(journey);
        Assert.Contains(field, errors.Keys);
    }

    const string Ok = """{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://a.example/","headers":[]},"response":{"status":200}}""";

    static string Entries(string entries) => $$$"""{"log":{"version":"1.2","entries":[{{{entries}}}]}}""";
}
