using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;

namespace BenchDashboard.Runner.Http;

static class HeaderLines
{
    /// <summary>
    /// Validation refuses these; a line break in a header value would end it and could smuggle a second request
    /// (to a Host of the sender's choosing) past the target policy, so each engine refuses them too.
    /// </summary>
    public static void RefuseLineBreaks(HttpParameters parameters)
    {
        if (parameters.Headers.Any(h => h.Key.Concat(h.Value).Any(c => c is '\r' or '\n' or '\0')))
            throw new TargetRefusedException("A header name or value contains a line break or NUL; nothing was sent.");
    }
}
