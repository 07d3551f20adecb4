export namespace driver {
	
	export class User {
	    name: string;
	    kind: string;
	    active: boolean;
	    roles: string[];
	
	    static createFrom(source: any = {}) {
	        return new User(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.active = source["active"];
	        this.roles = source["roles"];
	    }
	}
	export class Permission {
	    action: string;
	    scope?: string;
	    words: string;
	
	    static createFrom(source: any = {}) {
	        return new Permission(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.action = source["action"];
	        this.scope = source["scope"];
	        this.words = source["words"];
	    }
	}
	export class Role {
	    name: string;
	    builtIn?: boolean;
	    permissions: Permission[];
	
	    static createFrom(source: any = {}) {
	        return new Role(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.builtIn = source["builtIn"];
	        this.permissions = this.convertValues(source["permissions"], Permission);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AccessReport {
	    enforced: boolean;
	    user?: string;
	    auth?: string;
	    roles: Role[];
	    groups?: string[];
	    rolesShown: boolean;
	    allRoles?: Role[];
	    usersShown: boolean;
	    users?: User[];
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new AccessReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enforced = source["enforced"];
	        this.user = source["user"];
	        this.auth = source["auth"];
	        this.roles = this.convertValues(source["roles"], Role);
	        this.groups = source["groups"];
	        this.rolesShown = source["rolesShown"];
	        this.allRoles = this.convertValues(source["allRoles"], Role);
	        this.usersShown = source["usersShown"];
	        this.users = this.convertValues(source["users"], User);
	        this.note = source["note"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BackupBackend {
	    name: string;
	    label: string;
	    where?: string;
	
	    static createFrom(source: any = {}) {
	        return new BackupBackend(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.label = source["label"];
	        this.where = source["where"];
	    }
	}
	export class Condition {
	    key: string;
	    in: string[];
	
	    static createFrom(source: any = {}) {
	        return new Condition(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.in = source["in"];
	    }
	}
	export class ConnectionType {
	    name: string;
	    label: string;
	    summary?: string;
	
	    static createFrom(source: any = {}) {
	        return new ConnectionType(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.label = source["label"];
	        this.summary = source["summary"];
	    }
	}
	export class URLForm {
	    schemes: string[];
	    example?: string;
	    user?: string;
	    password?: string;
	    host?: string;
	    port?: string;
	    path?: string;
	    filePath?: boolean;
	    query?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new URLForm(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.schemes = source["schemes"];
	        this.example = source["example"];
	        this.user = source["user"];
	        this.password = source["password"];
	        this.host = source["host"];
	        this.port = source["port"];
	        this.path = source["path"];
	        this.filePath = source["filePath"];
	        this.query = source["query"];
	    }
	}
	export class Words {
	    language: string;
	    table?: string;
	    row?: string;
	    instructions?: string;
	    notes?: string;
	    activateTenant?: string;
	
	    static createFrom(source: any = {}) {
	        return new Words(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.language = source["language"];
	        this.table = source["table"];
	        this.row = source["row"];
	        this.instructions = source["instructions"];
	        this.notes = source["notes"];
	        this.activateTenant = source["activateTenant"];
	    }
	}
	export class Suggestion {
	    key: string;
	    suffixes: string[];
	    set: Record<string, string>;
	    text: string;
	    action: string;
	
	    static createFrom(source: any = {}) {
	        return new Suggestion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.suffixes = source["suffixes"];
	        this.set = source["set"];
	        this.text = source["text"];
	        this.action = source["action"];
	    }
	}
	export class SettingField {
	    key: string;
	    label: string;
	    kind: string;
	    default?: string;
	    placeholder?: string;
	    help?: string;
	    required?: boolean;
	    section?: string;
	    options?: string[];
	    optionHelp?: Record<string, string>;
	    min?: number;
	    max?: number;
	    format?: string;
	    showWhen?: Condition;
	
	    static createFrom(source: any = {}) {
	        return new SettingField(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.label = source["label"];
	        this.kind = source["kind"];
	        this.default = source["default"];
	        this.placeholder = source["placeholder"];
	        this.help = source["help"];
	        this.required = source["required"];
	        this.section = source["section"];
	        this.options = source["options"];
	        this.optionHelp = source["optionHelp"];
	        this.min = source["min"];
	        this.max = source["max"];
	        this.format = source["format"];
	        this.showWhen = this.convertValues(source["showWhen"], Condition);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Description {
	    types: ConnectionType[];
	    settings: SettingField[];
	    suggestions?: Suggestion[];
	    address?: string[];
	    words?: Words;
	    url?: URLForm;
	
	    static createFrom(source: any = {}) {
	        return new Description(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.types = this.convertValues(source["types"], ConnectionType);
	        this.settings = this.convertValues(source["settings"], SettingField);
	        this.suggestions = this.convertValues(source["suggestions"], Suggestion);
	        this.address = source["address"];
	        this.words = this.convertValues(source["words"], Words);
	        this.url = this.convertValues(source["url"], URLForm);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ProfileMetric {
	    name: string;
	    value: string;
	    seconds?: number;
	
	    static createFrom(source: any = {}) {
	        return new ProfileMetric(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.value = source["value"];
	        this.seconds = source["seconds"];
	    }
	}
	export class SearchProfile {
	    kind: string;
	    metrics: ProfileMetric[];
	
	    static createFrom(source: any = {}) {
	        return new SearchProfile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.metrics = this.convertValues(source["metrics"], ProfileMetric);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ShardProfile {
	    name: string;
	    node?: string;
	    searches: SearchProfile[];
	
	    static createFrom(source: any = {}) {
	        return new ShardProfile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.node = source["node"];
	        this.searches = this.convertValues(source["searches"], SearchProfile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class QueryProfile {
	    shards: ShardProfile[];
	
	    static createFrom(source: any = {}) {
	        return new QueryProfile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.shards = this.convertValues(source["shards"], ShardProfile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RestoreRefusal {
	    table: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new RestoreRefusal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.table = source["table"];
	        this.reason = source["reason"];
	    }
	}
	export class RestorePlan {
	    id: string;
	    backend: string;
	    tables: string[];
	    creates: string[];
	    overwrites: string[];
	    refused?: RestoreRefusal[];
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new RestorePlan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.backend = source["backend"];
	        this.tables = source["tables"];
	        this.creates = source["creates"];
	        this.overwrites = source["overwrites"];
	        this.refused = this.convertValues(source["refused"], RestoreRefusal);
	        this.note = source["note"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class SearchParam {
	    key: string;
	    label: string;
	    help?: string;
	    kind: string;
	    min?: number;
	    max?: number;
	    step?: number;
	    minLabel?: string;
	    maxLabel?: string;
	    default?: string;
	    options?: string[];
	    optionLabels?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new SearchParam(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.label = source["label"];
	        this.help = source["help"];
	        this.kind = source["kind"];
	        this.min = source["min"];
	        this.max = source["max"];
	        this.step = source["step"];
	        this.minLabel = source["minLabel"];
	        this.maxLabel = source["maxLabel"];
	        this.default = source["default"];
	        this.options = source["options"];
	        this.optionLabels = source["optionLabels"];
	    }
	}
	export class SearchMode {
	    name: string;
	    label: string;
	    hint?: string;
	    note?: string;
	    measure: string;
	    columns?: boolean;
	    textColumns?: string[];
	    explains?: boolean;
	    vector?: boolean;
	    params?: SearchParam[];
	
	    static createFrom(source: any = {}) {
	        return new SearchMode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.label = source["label"];
	        this.hint = source["hint"];
	        this.note = source["note"];
	        this.measure = source["measure"];
	        this.columns = source["columns"];
	        this.textColumns = source["textColumns"];
	        this.explains = source["explains"];
	        this.vector = source["vector"];
	        this.params = this.convertValues(source["params"], SearchParam);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	
	
	

}

export namespace dto {
	
	export class ActivityEntryDTO {
	    id: number;
	    time: string;
	    clientName: string;
	    clientVersion: string;
	    principal: string;
	    tokenName: string;
	    level: string;
	    method: string;
	    name: string;
	    connection: string;
	    statement: string;
	    outcome: string;
	    durationMs: number;
	    prevHash: string;
	    trace: string;
	    hash: string;
	
	    static createFrom(source: any = {}) {
	        return new ActivityEntryDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.time = source["time"];
	        this.clientName = source["clientName"];
	        this.clientVersion = source["clientVersion"];
	        this.principal = source["principal"];
	        this.tokenName = source["tokenName"];
	        this.level = source["level"];
	        this.method = source["method"];
	        this.name = source["name"];
	        this.connection = source["connection"];
	        this.statement = source["statement"];
	        this.outcome = source["outcome"];
	        this.durationMs = source["durationMs"];
	        this.prevHash = source["prevHash"];
	        this.trace = source["trace"];
	        this.hash = source["hash"];
	    }
	}
	export class ActivityPageDTO {
	    entries: ActivityEntryDTO[];
	    total: number;
	    offset: number;
	
	    static createFrom(source: any = {}) {
	        return new ActivityPageDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entries = this.convertValues(source["entries"], ActivityEntryDTO);
	        this.total = source["total"];
	        this.offset = source["offset"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ActivityQueryDTO {
	    client: string;
	    token: string;
	    connection: string;
	    outcome: string;
	    since: string;
	    until: string;
	    search: string;
	    offset: number;
	    limit: number;
	
	    static createFrom(source: any = {}) {
	        return new ActivityQueryDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.token = source["token"];
	        this.connection = source["connection"];
	        this.outcome = source["outcome"];
	        this.since = source["since"];
	        this.until = source["until"];
	        this.search = source["search"];
	        this.offset = source["offset"];
	        this.limit = source["limit"];
	    }
	}
	export class BackupDTO {
	    id: string;
	    backend: string;
	    tables: string[];
	    state: string;
	    phase: string;
	    started: string;
	    completed: string;
	    bytes: number;
	    where: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new BackupDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.backend = source["backend"];
	        this.tables = source["tables"];
	        this.state = source["state"];
	        this.phase = source["phase"];
	        this.started = source["started"];
	        this.completed = source["completed"];
	        this.bytes = source["bytes"];
	        this.where = source["where"];
	        this.error = source["error"];
	    }
	}
	export class BackupsDTO {
	    backends: driver.BackupBackend[];
	    backups: BackupDTO[];
	
	    static createFrom(source: any = {}) {
	        return new BackupsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.backends = this.convertValues(source["backends"], driver.BackupBackend);
	        this.backups = this.convertValues(source["backups"], BackupDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SortDTO {
	    column: string;
	    descending: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SortDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.column = source["column"];
	        this.descending = source["descending"];
	    }
	}
	export class FilterDTO {
	    column: string;
	    operator: string;
	    value: string;
	    value2: string;
	    group?: number;
	
	    static createFrom(source: any = {}) {
	        return new FilterDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.column = source["column"];
	        this.operator = source["operator"];
	        this.value = source["value"];
	        this.value2 = source["value2"];
	        this.group = source["group"];
	    }
	}
	export class BrowseRequestDTO {
	    offset: number;
	    limit: number;
	    filters: FilterDTO[];
	    sort: SortDTO[];
	
	    static createFrom(source: any = {}) {
	        return new BrowseRequestDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.offset = source["offset"];
	        this.limit = source["limit"];
	        this.filters = this.convertValues(source["filters"], FilterDTO);
	        this.sort = this.convertValues(source["sort"], SortDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CapabilitiesDTO {
	    queryLanguage: string;
	    restLines: boolean;
	    maxResults: number;
	    defaultPageSize: number;
	    transactions: boolean;
	    scan: boolean;
	    tenants: boolean;
	    nodes: boolean;
	    templates: boolean;
	    backups: boolean;
	    accessControl: boolean;
	    searchModes: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CapabilitiesDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.queryLanguage = source["queryLanguage"];
	        this.restLines = source["restLines"];
	        this.maxResults = source["maxResults"];
	        this.defaultPageSize = source["defaultPageSize"];
	        this.transactions = source["transactions"];
	        this.scan = source["scan"];
	        this.tenants = source["tenants"];
	        this.nodes = source["nodes"];
	        this.templates = source["templates"];
	        this.backups = source["backups"];
	        this.accessControl = source["accessControl"];
	        this.searchModes = source["searchModes"];
	    }
	}
	export class ChainCheckDTO {
	    entries: number;
	    anchorId: number;
	    intact: boolean;
	    brokenId: number;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new ChainCheckDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entries = source["entries"];
	        this.anchorId = source["anchorId"];
	        this.intact = source["intact"];
	        this.brokenId = source["brokenId"];
	        this.reason = source["reason"];
	    }
	}
	export class NodeShardDTO {
	    name: string;
	    objects: number;
	    loaded: boolean;
	    vectorIndexing: string;
	
	    static createFrom(source: any = {}) {
	        return new NodeShardDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.objects = source["objects"];
	        this.loaded = source["loaded"];
	        this.vectorIndexing = source["vectorIndexing"];
	    }
	}
	export class NodeTableDTO {
	    table: string;
	    shards: number;
	    loaded: number;
	    objects: number;
	    shardList: NodeShardDTO[];
	    shardsLeftOut: number;
	
	    static createFrom(source: any = {}) {
	        return new NodeTableDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.table = source["table"];
	        this.shards = source["shards"];
	        this.loaded = source["loaded"];
	        this.objects = source["objects"];
	        this.shardList = this.convertValues(source["shardList"], NodeShardDTO);
	        this.shardsLeftOut = source["shardsLeftOut"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ClusterNodeDTO {
	    name: string;
	    status: string;
	    version: string;
	    objects: number;
	    shards: number;
	    tables: NodeTableDTO[];
	
	    static createFrom(source: any = {}) {
	        return new ClusterNodeDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.status = source["status"];
	        this.version = source["version"];
	        this.objects = source["objects"];
	        this.shards = source["shards"];
	        this.tables = this.convertValues(source["tables"], NodeTableDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ColumnDTO {
	    name: string;
	    type: string;
	    primaryKey: boolean;
	    readOnly: boolean;
	    json: boolean;
	    description: string;
	    filterable: string[];
	    sortable: boolean;
	    preview: boolean;
	    tokenization: string;
	    filterNotes: Record<string, string>;
	    blocked: Record<string, string>;
	    kind: string;
	    of: string;
	    dimension: number;
	
	    static createFrom(source: any = {}) {
	        return new ColumnDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.type = source["type"];
	        this.primaryKey = source["primaryKey"];
	        this.readOnly = source["readOnly"];
	        this.json = source["json"];
	        this.description = source["description"];
	        this.filterable = source["filterable"];
	        this.sortable = source["sortable"];
	        this.preview = source["preview"];
	        this.tokenization = source["tokenization"];
	        this.filterNotes = source["filterNotes"];
	        this.blocked = source["blocked"];
	        this.kind = source["kind"];
	        this.of = source["of"];
	        this.dimension = source["dimension"];
	    }
	}
	export class RowChangeDTO {
	    ref: string;
	    key: Record<string, any>;
	    values: Record<string, any>;
	    original?: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new RowChangeDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.key = source["key"];
	        this.values = source["values"];
	        this.original = source["original"];
	    }
	}
	export class CommitRequestDTO {
	    updates: RowChangeDTO[];
	    inserts: RowChangeDTO[];
	    deletes: RowChangeDTO[];
	
	    static createFrom(source: any = {}) {
	        return new CommitRequestDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.updates = this.convertValues(source["updates"], RowChangeDTO);
	        this.inserts = this.convertValues(source["inserts"], RowChangeDTO);
	        this.deletes = this.convertValues(source["deletes"], RowChangeDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RowOutcomeDTO {
	    ref: string;
	    action: string;
	    key: Record<string, any>;
	    status: string;
	    code: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new RowOutcomeDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.action = source["action"];
	        this.key = source["key"];
	        this.status = source["status"];
	        this.code = source["code"];
	        this.message = source["message"];
	    }
	}
	export class CommitResultDTO {
	    outcomes: RowOutcomeDTO[];
	    declined: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CommitResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.outcomes = this.convertValues(source["outcomes"], RowOutcomeDTO);
	        this.declined = source["declined"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConnectedClientDTO {
	    name: string;
	    version: string;
	    principal: string;
	    tokenName: string;
	    level: string;
	    firstSeen: string;
	    lastSeen: string;
	    requests: number;
	    errors: number;
	
	    static createFrom(source: any = {}) {
	        return new ConnectedClientDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.version = source["version"];
	        this.principal = source["principal"];
	        this.tokenName = source["tokenName"];
	        this.level = source["level"];
	        this.firstSeen = source["firstSeen"];
	        this.lastSeen = source["lastSeen"];
	        this.requests = source["requests"];
	        this.errors = source["errors"];
	    }
	}
	export class SettingRowDTO {
	    label: string;
	    value: string;
	
	    static createFrom(source: any = {}) {
	        return new SettingRowDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.label = source["label"];
	        this.value = source["value"];
	    }
	}
	export class ConnectionDTO {
	    id: string;
	    name: string;
	    type: string;
	    host: string;
	    port: number;
	    authMethod: string;
	    sslMode: string;
	    skipTLSVerify: boolean;
	    externalAccess: string;
	    createdAt: string;
	    address: string;
	    typeLabel: string;
	    language: string;
	    settings: SettingRowDTO[];
	
	    static createFrom(source: any = {}) {
	        return new ConnectionDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.host = source["host"];
	        this.port = source["port"];
	        this.authMethod = source["authMethod"];
	        this.sslMode = source["sslMode"];
	        this.skipTLSVerify = source["skipTLSVerify"];
	        this.externalAccess = source["externalAccess"];
	        this.createdAt = source["createdAt"];
	        this.address = source["address"];
	        this.typeLabel = source["typeLabel"];
	        this.language = source["language"];
	        this.settings = this.convertValues(source["settings"], SettingRowDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConnectionFormDTO {
	    id: string;
	    name: string;
	    type: string;
	    values: Record<string, string>;
	    externalAccess: string;
	    aiPolicy: string;
	    savedSecrets: string[];
	
	    static createFrom(source: any = {}) {
	        return new ConnectionFormDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.values = source["values"];
	        this.externalAccess = source["externalAccess"];
	        this.aiPolicy = source["aiPolicy"];
	        this.savedSecrets = source["savedSecrets"];
	    }
	}
	export class ConnectionStateDTO {
	    id: string;
	    connected: boolean;
	    serverVersion: string;
	    route: string;
	    capabilities: CapabilitiesDTO;
	
	    static createFrom(source: any = {}) {
	        return new ConnectionStateDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.connected = source["connected"];
	        this.serverVersion = source["serverVersion"];
	        this.route = source["route"];
	        this.capabilities = this.convertValues(source["capabilities"], CapabilitiesDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FilterRefusalDTO {
	    index: number;
	    column: string;
	    operator: string;
	    reason: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new FilterRefusalDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.column = source["column"];
	        this.operator = source["operator"];
	        this.reason = source["reason"];
	        this.message = source["message"];
	    }
	}
	export class CountResultDTO {
	    count?: number;
	    estimated: boolean;
	    refused?: FilterRefusalDTO;
	
	    static createFrom(source: any = {}) {
	        return new CountResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.count = source["count"];
	        this.estimated = source["estimated"];
	        this.refused = this.convertValues(source["refused"], FilterRefusalDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TokenDTO {
	    id: string;
	    name: string;
	    level: string;
	    connections: string[];
	    expiresAt: string;
	    createdAt: string;
	    lastUsedAt: string;
	    expired: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TokenDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.level = source["level"];
	        this.connections = source["connections"];
	        this.expiresAt = source["expiresAt"];
	        this.createdAt = source["createdAt"];
	        this.lastUsedAt = source["lastUsedAt"];
	        this.expired = source["expired"];
	    }
	}
	export class CreatedTokenDTO {
	    token: TokenDTO;
	    secret: string;
	
	    static createFrom(source: any = {}) {
	        return new CreatedTokenDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = this.convertValues(source["token"], TokenDTO);
	        this.secret = source["secret"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DetailItemDTO {
	    label: string;
	    value: string;
	    setting: string;
	
	    static createFrom(source: any = {}) {
	        return new DetailItemDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.label = source["label"];
	        this.value = source["value"];
	        this.setting = source["setting"];
	    }
	}
	export class DetailSectionDTO {
	    title: string;
	    items: DetailItemDTO[];
	
	    static createFrom(source: any = {}) {
	        return new DetailSectionDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.items = this.convertValues(source["items"], DetailItemDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class EditorWordsDTO {
	    named: boolean;
	    tables: Record<string, Array<string>>;
	    functions: string[];
	
	    static createFrom(source: any = {}) {
	        return new EditorWordsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.named = source["named"];
	        this.tables = source["tables"];
	        this.functions = source["functions"];
	    }
	}
	export class ExportRequestDTO {
	    format: string;
	    filters: FilterDTO[];
	    sort: SortDTO[];
	    vectors: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ExportRequestDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.format = source["format"];
	        this.filters = this.convertValues(source["filters"], FilterDTO);
	        this.sort = this.convertValues(source["sort"], SortDTO);
	        this.vectors = source["vectors"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ExportResultDTO {
	    status: string;
	    rows: number;
	    path: string;
	    bytes: number;
	    elapsedMs: number;
	
	    static createFrom(source: any = {}) {
	        return new ExportResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.rows = source["rows"];
	        this.path = source["path"];
	        this.bytes = source["bytes"];
	        this.elapsedMs = source["elapsedMs"];
	    }
	}
	
	
	export class ForeignChangeDTO {
	    name: string;
	    path: string;
	    what: string;
	    canRevert: boolean;
	    sealedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new ForeignChangeDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.what = source["what"];
	        this.canRevert = source["canRevert"];
	        this.sealedAt = source["sealedAt"];
	    }
	}
	export class GridDTO {
	    columns: ColumnDTO[];
	    rows: string[][];
	    offset: number;
	    hasMore: boolean;
	    notice: string;
	    refused?: FilterRefusalDTO;
	
	    static createFrom(source: any = {}) {
	        return new GridDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.columns = this.convertValues(source["columns"], ColumnDTO);
	        this.rows = source["rows"];
	        this.offset = source["offset"];
	        this.hasMore = source["hasMore"];
	        this.notice = source["notice"];
	        this.refused = this.convertValues(source["refused"], FilterRefusalDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryEntryDTO {
	    text: string;
	    at: string;
	    ok: boolean;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new HistoryEntryDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.at = source["at"];
	        this.ok = source["ok"];
	        this.error = source["error"];
	    }
	}
	export class RejectedDTO {
	    line: number;
	    key: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new RejectedDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.line = source["line"];
	        this.key = source["key"];
	        this.reason = source["reason"];
	    }
	}
	export class ImportPreviewDTO {
	    path: string;
	    format: string;
	    columns: string[];
	    targets: string[];
	    rows: string[][];
	    problems: Record<string, any>;
	    broken: RejectedDTO[];
	    exists: boolean;
	    tableColumns: string[];
	
	    static createFrom(source: any = {}) {
	        return new ImportPreviewDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.format = source["format"];
	        this.columns = source["columns"];
	        this.targets = source["targets"];
	        this.rows = source["rows"];
	        this.problems = source["problems"];
	        this.broken = this.convertValues(source["broken"], RejectedDTO);
	        this.exists = source["exists"];
	        this.tableColumns = source["tableColumns"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportResultDTO {
	    status: string;
	    written: number;
	    skipped: number;
	    failed: number;
	    unknown: number;
	    created: boolean;
	    report: string;
	    rejected: RejectedDTO[];
	    message: string;
	    elapsedMs: number;
	
	    static createFrom(source: any = {}) {
	        return new ImportResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.written = source["written"];
	        this.skipped = source["skipped"];
	        this.failed = source["failed"];
	        this.unknown = source["unknown"];
	        this.created = source["created"];
	        this.report = source["report"];
	        this.rejected = this.convertValues(source["rejected"], RejectedDTO);
	        this.message = source["message"];
	        this.elapsedMs = source["elapsedMs"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LayoutTabDTO {
	    kind: string;
	    connectionId: string;
	    table: string;
	
	    static createFrom(source: any = {}) {
	        return new LayoutTabDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.connectionId = source["connectionId"];
	        this.table = source["table"];
	    }
	}
	export class LayoutDTO {
	    tabs: LayoutTabDTO[];
	    active: string;
	    lastTable: Record<string, string>;
	    columnWidths: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new LayoutDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tabs = this.convertValues(source["tabs"], LayoutTabDTO);
	        this.active = source["active"];
	        this.lastTable = source["lastTable"];
	        this.columnWidths = source["columnWidths"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class StaleClientDTO {
	    client: string;
	    title: string;
	    file: string;
	    url: string;
	
	    static createFrom(source: any = {}) {
	        return new StaleClientDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.title = source["title"];
	        this.file = source["file"];
	        this.url = source["url"];
	    }
	}
	export class MCPSettingsDTO {
	    enabled: boolean;
	    port: number;
	    requireAuth: boolean;
	    externalAccess: boolean;
	    defaultRowLimit: number;
	    maxRowLimit: number;
	    queryTimeoutSeconds: number;
	    rateLimitPerMinute: number;
	    boundPort: number;
	    status: string;
	    error: string;
	    portNotice: string;
	    staleClients: StaleClientDTO[];
	
	    static createFrom(source: any = {}) {
	        return new MCPSettingsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.port = source["port"];
	        this.requireAuth = source["requireAuth"];
	        this.externalAccess = source["externalAccess"];
	        this.defaultRowLimit = source["defaultRowLimit"];
	        this.maxRowLimit = source["maxRowLimit"];
	        this.queryTimeoutSeconds = source["queryTimeoutSeconds"];
	        this.rateLimitPerMinute = source["rateLimitPerMinute"];
	        this.boundPort = source["boundPort"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.portNotice = source["portNotice"];
	        this.staleClients = this.convertValues(source["staleClients"], StaleClientDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MapColumnDTO {
	    name: string;
	    type: string;
	    kind: string;
	    values: string[];
	
	    static createFrom(source: any = {}) {
	        return new MapColumnDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.type = source["type"];
	        this.kind = source["kind"];
	        this.values = source["values"];
	    }
	}
	export class MapPointsDTO {
	    id: string;
	    keyColumns: string[];
	    keys: any[][];
	    columns: MapColumnDTO[];
	    vector: string;
	    dims: number;
	    matched: number;
	    skipped: number;
	    sampled: boolean;
	    kept: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MapPointsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.keyColumns = source["keyColumns"];
	        this.keys = source["keys"];
	        this.columns = this.convertValues(source["columns"], MapColumnDTO);
	        this.vector = source["vector"];
	        this.dims = source["dims"];
	        this.matched = source["matched"];
	        this.skipped = source["skipped"];
	        this.sampled = source["sampled"];
	        this.kept = source["kept"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MapRequestDTO {
	    vector: string;
	    filters: FilterDTO[];
	    max: number;
	    fresh: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MapRequestDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.vector = source["vector"];
	        this.filters = this.convertValues(source["filters"], FilterDTO);
	        this.max = source["max"];
	        this.fresh = source["fresh"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class PairingClientDTO {
	    id: string;
	    title: string;
	    file: string;
	    unsupported: string;
	    stdioOnly: boolean;
	    format: string;
	    proof: string;
	    configured: boolean;
	    project: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PairingClientDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.file = source["file"];
	        this.unsupported = source["unsupported"];
	        this.stdioOnly = source["stdioOnly"];
	        this.format = source["format"];
	        this.proof = source["proof"];
	        this.configured = source["configured"];
	        this.project = source["project"];
	    }
	}
	export class PairingRemovalDTO {
	    client: string;
	    project: string;
	
	    static createFrom(source: any = {}) {
	        return new PairingRemovalDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.project = source["project"];
	    }
	}
	export class PairingRemovedDTO {
	    file: string;
	    backup: string;
	    revoked: string;
	    declined: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PairingRemovedDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.backup = source["backup"];
	        this.revoked = source["revoked"];
	        this.declined = source["declined"];
	    }
	}
	export class PairingRequestDTO {
	    client: string;
	    level: string;
	    connections: string[];
	    expires: string;
	    write: boolean;
	    stdio: boolean;
	    project: string;
	
	    static createFrom(source: any = {}) {
	        return new PairingRequestDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.level = source["level"];
	        this.connections = source["connections"];
	        this.expires = source["expires"];
	        this.write = source["write"];
	        this.stdio = source["stdio"];
	        this.project = source["project"];
	    }
	}
	export class PairingResultDTO {
	    text: string;
	    format: string;
	    file: string;
	    note: string;
	    token?: TokenDTO;
	    written: string;
	    backup: string;
	    declined: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PairingResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.format = source["format"];
	        this.file = source["file"];
	        this.note = source["note"];
	        this.token = this.convertValues(source["token"], TokenDTO);
	        this.written = source["written"];
	        this.backup = source["backup"];
	        this.declined = source["declined"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PathStatusDTO {
	    name: string;
	    ok: boolean;
	    detail: string;
	
	    static createFrom(source: any = {}) {
	        return new PathStatusDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.ok = source["ok"];
	        this.detail = source["detail"];
	    }
	}
	export class PluginDTO {
	    name: string;
	    displayName: string;
	    description: string;
	    publisher: string;
	    installed: string;
	    available: string;
	    size: number;
	    releaseNotes: string;
	    status: string;
	    reason: string;
	    fromMirror: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PluginDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.displayName = source["displayName"];
	        this.description = source["description"];
	        this.publisher = source["publisher"];
	        this.installed = source["installed"];
	        this.available = source["available"];
	        this.size = source["size"];
	        this.releaseNotes = source["releaseNotes"];
	        this.status = source["status"];
	        this.reason = source["reason"];
	        this.fromMirror = source["fromMirror"];
	    }
	}
	export class PluginListDTO {
	    plugins: PluginDTO[];
	    registryError: string;
	
	    static createFrom(source: any = {}) {
	        return new PluginListDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.plugins = this.convertValues(source["plugins"], PluginDTO);
	        this.registryError = source["registryError"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PluginOfferDTO {
	    plugin: string;
	    displayName: string;
	    description: string;
	    publisher: string;
	    installed: boolean;
	    version: string;
	    size: number;
	    releaseNotes: string;
	    unavailable: string;
	    fromMirror: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PluginOfferDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.plugin = source["plugin"];
	        this.displayName = source["displayName"];
	        this.description = source["description"];
	        this.publisher = source["publisher"];
	        this.installed = source["installed"];
	        this.version = source["version"];
	        this.size = source["size"];
	        this.releaseNotes = source["releaseNotes"];
	        this.unavailable = source["unavailable"];
	        this.fromMirror = source["fromMirror"];
	    }
	}
	export class PluginResultDTO {
	    plugin: string;
	    version: string;
	    previous: string;
	    changed: boolean;
	    available: string;
	
	    static createFrom(source: any = {}) {
	        return new PluginResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.plugin = source["plugin"];
	        this.version = source["version"];
	        this.previous = source["previous"];
	        this.changed = source["changed"];
	        this.available = source["available"];
	    }
	}
	
	export class RepairedClientDTO {
	    title: string;
	    file: string;
	    backup: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new RepairedClientDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.file = source["file"];
	        this.backup = source["backup"];
	        this.error = source["error"];
	    }
	}
	export class RepairResultDTO {
	    repaired: RepairedClientDTO[];
	    settings: MCPSettingsDTO;
	
	    static createFrom(source: any = {}) {
	        return new RepairResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.repaired = this.convertValues(source["repaired"], RepairedClientDTO);
	        this.settings = this.convertValues(source["settings"], MCPSettingsDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class RestoreResultDTO {
	    restore?: BackupDTO;
	    plan: driver.RestorePlan;
	    declined: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RestoreResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.restore = this.convertValues(source["restore"], BackupDTO);
	        this.plan = this.convertValues(source["plan"], driver.RestorePlan);
	        this.declined = source["declined"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ResultSetDTO {
	    kind: string;
	    grid?: GridDTO;
	    json: string;
	    text: string;
	    tag: string;
	    notice: string;
	
	    static createFrom(source: any = {}) {
	        return new ResultSetDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.grid = this.convertValues(source["grid"], GridDTO);
	        this.json = source["json"];
	        this.text = source["text"];
	        this.tag = source["tag"];
	        this.notice = source["notice"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class RunResultDTO {
	    kind: string;
	    grid?: GridDTO;
	    json: string;
	    text: string;
	    table: string;
	    status: number;
	    message: string;
	    access: string;
	    destructive: boolean;
	    elapsedMs: number;
	    notice: string;
	    tag: string;
	    before: ResultSetDTO[];
	
	    static createFrom(source: any = {}) {
	        return new RunResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.grid = this.convertValues(source["grid"], GridDTO);
	        this.json = source["json"];
	        this.text = source["text"];
	        this.table = source["table"];
	        this.status = source["status"];
	        this.message = source["message"];
	        this.access = source["access"];
	        this.destructive = source["destructive"];
	        this.elapsedMs = source["elapsedMs"];
	        this.notice = source["notice"];
	        this.tag = source["tag"];
	        this.before = this.convertValues(source["before"], ResultSetDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SavedQueryDTO {
	    name: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new SavedQueryDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.text = source["text"];
	    }
	}
	export class SearchRequestDTO {
	    by: string;
	    mode: string;
	    query: string;
	    vector: string;
	    row: Record<string, any>;
	    vectorRow: Record<string, any>;
	    params: Record<string, string>;
	    searchColumns: string[];
	    targetVector: string;
	    filters: FilterDTO[];
	    limit: number;
	    explain: boolean;
	    profile: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SearchRequestDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.by = source["by"];
	        this.mode = source["mode"];
	        this.query = source["query"];
	        this.vector = source["vector"];
	        this.row = source["row"];
	        this.vectorRow = source["vectorRow"];
	        this.params = source["params"];
	        this.searchColumns = source["searchColumns"];
	        this.targetVector = source["targetVector"];
	        this.filters = this.convertValues(source["filters"], FilterDTO);
	        this.limit = source["limit"];
	        this.explain = source["explain"];
	        this.profile = source["profile"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchResultDTO {
	    grid: GridDTO;
	    describe: string;
	    measure: string;
	    refused?: FilterRefusalDTO;
	    profile?: driver.QueryProfile;
	
	    static createFrom(source: any = {}) {
	        return new SearchResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.grid = this.convertValues(source["grid"], GridDTO);
	        this.describe = source["describe"];
	        this.measure = source["measure"];
	        this.refused = this.convertValues(source["refused"], FilterRefusalDTO);
	        this.profile = this.convertValues(source["profile"], driver.QueryProfile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SimilarResultDTO {
	    grid: GridDTO;
	    targetVector: string;
	    dimensions: number;
	
	    static createFrom(source: any = {}) {
	        return new SimilarResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.grid = this.convertValues(source["grid"], GridDTO);
	        this.targetVector = source["targetVector"];
	        this.dimensions = source["dimensions"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class TableCountDTO {
	    name: string;
	    count?: number;
	    estimated: boolean;
	    tenants?: number;
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new TableCountDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.count = source["count"];
	        this.estimated = source["estimated"];
	        this.tenants = source["tenants"];
	        this.message = source["message"];
	    }
	}
	export class TableDTO {
	    name: string;
	    description: string;
	    multiTenant: boolean;
	    kind: string;
	    estimate?: number;
	    group: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new TableDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.multiTenant = source["multiTenant"];
	        this.kind = source["kind"];
	        this.estimate = source["estimate"];
	        this.group = source["group"];
	        this.label = source["label"];
	    }
	}
	export class TableSettingsDTO {
	    multiTenancy: boolean;
	    vectorizer: string;
	    namedVectors: string[];
	    ownVector: boolean;
	    vectorizedVectors: string[];
	    indexNullState: boolean;
	    indexPropertyLength: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TableSettingsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.multiTenancy = source["multiTenancy"];
	        this.vectorizer = source["vectorizer"];
	        this.namedVectors = source["namedVectors"];
	        this.ownVector = source["ownVector"];
	        this.vectorizedVectors = source["vectorizedVectors"];
	        this.indexNullState = source["indexNullState"];
	        this.indexPropertyLength = source["indexPropertyLength"];
	    }
	}
	export class TableInfoDTO {
	    name: string;
	    description: string;
	    primaryKey: string[];
	    columns: ColumnDTO[];
	    settings: TableSettingsDTO;
	    details: DetailSectionDTO[];
	    searches: driver.SearchMode[];
	    profiles: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TableInfoDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.primaryKey = source["primaryKey"];
	        this.columns = this.convertValues(source["columns"], ColumnDTO);
	        this.settings = this.convertValues(source["settings"], TableSettingsDTO);
	        this.details = this.convertValues(source["details"], DetailSectionDTO);
	        this.searches = this.convertValues(source["searches"], driver.SearchMode);
	        this.profiles = source["profiles"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class TemplateDTO {
	    name: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new TemplateDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.text = source["text"];
	    }
	}
	export class TenantDTO {
	    name: string;
	    table: string;
	    status: string;
	
	    static createFrom(source: any = {}) {
	        return new TenantDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.table = source["table"];
	        this.status = source["status"];
	    }
	}
	export class TenantPageDTO {
	    total: number;
	    matched: number;
	    offset: number;
	    tenants: TenantDTO[];
	    kept: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TenantPageDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.total = source["total"];
	        this.matched = source["matched"];
	        this.offset = source["offset"];
	        this.tenants = this.convertValues(source["tenants"], TenantDTO);
	        this.kept = source["kept"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TestResultDTO {
	    serverVersion: string;
	    paths: PathStatusDTO[];
	    changed?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new TestResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverVersion = source["serverVersion"];
	        this.paths = this.convertValues(source["paths"], PathStatusDTO);
	        this.changed = source["changed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class TokenRequestDTO {
	    name: string;
	    level: string;
	    connections: string[];
	    expires: string;
	
	    static createFrom(source: any = {}) {
	        return new TokenRequestDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.level = source["level"];
	        this.connections = source["connections"];
	        this.expires = source["expires"];
	    }
	}
	export class URLFieldsDTO {
	    values: Record<string, string>;
	    secrets: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new URLFieldsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.values = source["values"];
	        this.secrets = source["secrets"];
	    }
	}

}

export namespace plugins {
	
	export class ConnType {
	    name: string;
	    label: string;
	    summary?: string;
	    plugin: string;
	    installed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ConnType(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.label = source["label"];
	        this.summary = source["summary"];
	        this.plugin = source["plugin"];
	        this.installed = source["installed"];
	    }
	}

}

