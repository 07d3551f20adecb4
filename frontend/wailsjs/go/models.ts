export namespace app {
	
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
	    }
	}

}

