// This machine's toolchain only (Debian 12's Json.NET 6.0.8, with Mono): compiled beside the
// generated client, never part of it. The generated ApiClient.cs and AbstractOpenAPISchema.cs set
// `ContractResolver = new DefaultContractResolver { NamingStrategy = new CamelCaseNamingStrategy {
// OverrideSpecifiedNames = false } }`, and NamingStrategy arrived in Json.NET 9.0.1. C# looks a name
// up in the enclosing namespaces before the `using` directives, so these two types, in the
// client's root namespace, stand in for Json.NET's there: the resolver is Json.NET's own, and the
// naming strategy is a property nothing reads. That changes no name on the wire: every generated
// member names its JSON property ([DataMember(Name = "…")]), which OverrideSpecifiedNames = false
// left alone. With Json.NET 9 or later (NuGet's 13.0.3 on the .NET SDK), leave this file out.
namespace Partner.Payments
{
    internal class DefaultContractResolver : Newtonsoft.Json.Serialization.DefaultContractResolver
    {
        public CamelCaseNamingStrategy NamingStrategy { get; set; }
    }

    internal class CamelCaseNamingStrategy
    {
        public bool OverrideSpecifiedNames { get; set; }
    }
}
